package benchreport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/cli"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"

	"github.com/asktray/asktray/internal/testkit"
)

// hookPayload is Claude Code's PermissionRequest as recorded in app/hook/testdata.
func hookPayload(b *testing.B) []byte {
	b.Helper()
	p, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "PermissionRequest.json"))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// answerAsked answers every approval the broker asks with allow, at once,
// and sends the time each was asked.
func answerAsked(b *testing.B, env app.Env) <-chan time.Time {
	b.Helper()
	asked := make(chan time.Time, 64)
	unsub := env.Broker.Subscribe(func(ev question.Event) {
		if ev.Type != question.EventAsked || ev.Question.Kind != question.KindApproval {
			return
		}
		asked <- time.Now()
		go func() {
			_ = env.Broker.Answer(ev.Question.ID, question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`), Via: question.ViaDialog})
		}()
	})
	b.Cleanup(unsub)
	return asked
}

const hookAllow = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n"

// BenchmarkReport_HookToQuestion times `asktray hook claude-code`, run in
// this process, from its start to the question pending in the broker (the
// event the tray shows it on), next to a bare control-socket round trip
// (GET /v1/status) to the same app.
func BenchmarkReport_HookToQuestion(b *testing.B) {
	const n = 50
	env := startApp(b)
	asked := answerAsked(b, env)
	payload := hookPayload(b)
	c := control.NewClient(filepath.Join(env.DataDir, datadir.SocketFile))
	ctx := context.Background()
	var hookD, bareD []time.Duration
	for range n * b.N {
		start := time.Now()
		if _, err := c.Status(ctx); err != nil {
			b.Fatal(err)
		}
		bareD = append(bareD, time.Since(start))

		var out bytes.Buffer
		start = time.Now()
		code := cli.Main(ctx, []string{"hook", "claude-code", "--data-dir", env.DataDir}, cli.IO{In: bytes.NewReader(payload), Out: &out, Err: os.Stderr}, nil)
		if code != 0 || out.String() != hookAllow {
			b.Fatalf("hook: exit %d, output %q", code, out.String())
		}
		hookD = append(hookD, (<-asked).Sub(start))
	}
	report(fmt.Sprintf("`asktray hook claude-code` (in process) start to the question pending in the tray's broker, %d PermissionRequests", len(hookD)),
		"p50 "+ms(pct(hookD, 0.5))+", p95 "+ms(pct(hookD, 0.95))+", max "+ms(slices.Max(hookD)),
		"bare control-socket round trip (GET /v1/status): p50 "+ms(pct(bareD, 0.5))+", p95 "+ms(pct(bareD, 0.95)))
}

// BenchmarkReport_HookBinary execs the real binary as an agent does, against
// an app that is the same binary (the hook answers only to the app the
// instance file names, running its own executable): from exec to the
// question pending (polled over the control socket), and from exec to its
// decision printed (denied over the socket at once), next to exec of
// `asktray version`.
func BenchmarkReport_HookBinary(b *testing.B) {
	const n = 10
	bin := os.Getenv("ASKTRAY_BIN")
	if bin == "" {
		bin = testkit.Binary(b)
	}
	dir, c := startBinaryApp(b, bin)
	ctx := context.Background()
	payload := hookPayload(b)
	var toAsk, toOut, version []time.Duration
	for range n * b.N {
		cmd := exec.Command(bin, "hook", "claude-code", "--data-dir", dir)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var id string
		for id == "" {
			qs, err := c.Pending(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if len(qs) > 0 {
				id = qs[0].ID
			}
		}
		toAsk = append(toAsk, time.Since(start))
		if _, err := c.Answer(ctx, id, control.AnswerRequest{Action: question.Decline}); err != nil {
			b.Fatal(err)
		}
		err := cmd.Wait()
		toOut = append(toOut, time.Since(start))
		if err != nil || !strings.Contains(out.String(), `"behavior":"deny"`) {
			b.Fatalf("hook: %v, output %q", err, out.String())
		}

		start = time.Now()
		if err := exec.Command(bin, "version").Run(); err != nil {
			b.Fatal(err)
		}
		version = append(version, time.Since(start))
	}
	report(fmt.Sprintf("exec of `asktray hook claude-code` to the question pending, and to its decision printed (denied at once), %d runs", len(toAsk)),
		"to pending: p50 "+ms(pct(toAsk, 0.5))+", max "+ms(slices.Max(toAsk))+"; to output: p50 "+ms(pct(toOut, 0.5))+", max "+ms(slices.Max(toOut)),
		"exec of `asktray version` to exit: p50 "+ms(pct(version, 0.5)))
}
