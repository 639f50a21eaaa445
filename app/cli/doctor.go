package cli

// 'asktray doctor' checks every client's and agent's asktray entry, the
// running app and the agents' trust state, and sends a test request through
// each installed hook command (package doctor).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/doctor"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// errProblems is doctor's error when the report has problems; the report
// has said what they are.
type errProblems int

func (e errProblems) Error() string {
	if e == 1 {
		return "doctor found 1 problem"
	}
	return fmt.Sprintf("doctor found %d problems", int(e))
}

func cmdDoctor(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("doctor")
	noTest := f.Bool("no-test", false, "send no test request through the hook commands")
	asJSON := f.Bool("json", false, "print the report as JSON")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("doctor takes no arguments, got %q", pos)
	}
	dir, err := f.dir()
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	env, err := doctorEnv(ctx, dir)
	if err != nil {
		return err
	}
	env.Test = !*noTest
	r := doctor.Check(ctx, env)
	if *asJSON {
		err = writeJSON(stdio, struct {
			OK    bool          `json:"ok"`
			Lines []doctor.Line `json:"lines"`
		}{r.OK(), r.Lines})
	} else {
		err = r.Write(stdio.Out)
	}
	if err != nil {
		return err
	}
	if n := len(r.Problems()); n > 0 {
		return errProblems(n)
	}
	return nil
}

// doctorEnv is what doctor.Check needs to know of data dir dir and the app
// running on it; it makes no file (unlike 'asktray config', it does not
// make a missing token).
func doctorEnv(ctx context.Context, dir string) (doctor.Env, error) {
	sys, err := configSystem()
	if err != nil {
		return doctor.Env{}, err
	}
	def, _ := datadir.Default()
	if def != "" {
		def, _ = filepath.Abs(def)
	}
	cwd, _ := os.Getwd()
	env := doctor.Env{Sys: sys, DataDir: dir, DefaultDataDir: def, Cwd: cwd, Deadline: question.DefaultTimeout, Probe: doctor.HTTPProbe}
	if set, err := settings.Load(dir); err == nil {
		env.Server.URL = "http://" + set.MCPAddr() + "/mcp"
		if set.DefaultTimeoutSeconds > 0 {
			env.Deadline = question.TimeoutSeconds(int64(set.DefaultTimeoutSeconds))
		}
	}
	if tok, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile)); err == nil {
		env.Server.Token = strings.TrimSpace(string(tok))
	}
	c := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := c.Status(sctx)
	switch {
	case err == nil:
		env.Server.URL, env.Server.Running, env.AppPID = st.URL, true, st.PID
	case !errors.Is(err, control.ErrNoApp):
		return env, err
	}
	env.Notice = func(ctx context.Context, id string) error {
		it, err := c.Get(ctx, id)
		if err != nil {
			return err
		}
		if it.Question.Kind != question.KindNotice {
			return fmt.Errorf("%s is a %s, not a notice", id, it.Question.Kind)
		}
		return nil
	}
	return env, nil
}
