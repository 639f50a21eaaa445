package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/doctor"
	"github.com/asktray/asktray/app/question"
)

// doctorTimeout bounds one check from the window: reading the files and a
// test request through each installed hook command.
const doctorTimeout = time.Minute

// checkSetup runs the check 'asktray doctor' runs (app/doctor) in the
// background and shows its report in place of the setup: a FIX line per
// problem, naming the file and the key. It runs on the Fyne goroutine and
// returns at once.
func (c *connectWindow) checkSetup() {
	env, err := c.doctorEnv()
	if err != nil {
		c.setText(err.Error())
		return
	}
	c.check.Disable()
	c.setText("Checking every client's and agent's asktray entry…")
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), doctorTimeout)
		defer cancel()
		r := doctor.Check(ctx, env)
		text := doctorSummary(r)
		fyne.Do(func() {
			c.setText(text)
			c.hint.SetText("The same check as 'asktray doctor' (which also reads the trust of the folder it runs in). " +
				"Pick a client to see its setup again.")
			c.check.Enable()
			if c.checked != nil {
				c.checked(r)
			}
		})
	}()
}

// doctorSummary is the check's report as a person reads it first: how
// many things need fixing, each in a sentence with where (or that all is
// well), then the full report as 'asktray doctor' prints it. Any goroutine
// may call it.
func doctorSummary(r doctor.Report) string {
	var b strings.Builder
	problems := r.Problems()
	switch n := len(problems); n {
	case 0:
		fmt.Fprintf(&b, "Everything is set up: %d checks passed.\n", len(r.Lines))
	case 1:
		b.WriteString("1 thing to fix:\n")
	default:
		fmt.Fprintf(&b, "%d things to fix:\n", n)
	}
	for i, l := range problems {
		who := l.What
		if l.Client != "" {
			who = l.Client + " " + l.What
		}
		fmt.Fprintf(&b, "%d. %s: %s", i+1, who, l.Text)
		if l.File != "" {
			fmt.Fprintf(&b, " (in %s", l.File)
			if l.Key != "" {
				fmt.Fprintf(&b, ", %s", l.Key)
			}
			b.WriteString(")")
		}
		b.WriteString("\n")
	}
	b.WriteString("\nThe full report:\n")
	_ = r.Write(&b) // a strings.Builder takes every write
	return b.String()
}

// doctorEnv is what the check reads of this app: its URL and token, the
// person's deadline, and the broker to confirm the test requests' notices.
// The window has no folder in view, so no folder trust is read. It runs on
// the Fyne goroutine and does not block.
func (c *connectWindow) doctorEnv() (doctor.Env, error) {
	sys, err := clientsetup.System()
	if err != nil {
		return doctor.Env{}, err
	}
	def, _ := datadir.Default()
	url, token := c.endpoint()
	return doctor.Env{Sys: sys, DataDir: c.dataDir, DefaultDataDir: def, Deadline: c.deadline(),
		Server: clientsetup.Server{URL: url, Token: token, Running: url != ""}, Test: c.testRequests, Notice: c.notice, Probe: doctor.HTTPProbe, Run: c.run}, nil
}

// brokerNotice reports whether env's broker shows question id as a notice,
// for the check's test requests; nil without a broker (tests of other
// windows).
func brokerNotice(env app.Env) func(ctx context.Context, id string) error {
	if env.Broker == nil {
		return nil
	}
	return func(_ context.Context, id string) error {
		q, _, err := env.Broker.Get(id)
		if err != nil {
			return err
		}
		if q.Kind != question.KindNotice {
			return fmt.Errorf("%s is a %s, not a notice", id, q.Kind)
		}
		return nil
	}
}
