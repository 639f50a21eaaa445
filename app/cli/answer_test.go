package cli

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

var (
	deploy = question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code"}, Message: "Deploy?",
		Action: "Deploy to production", Details: "`make deploy ENV=prod`\x1b]0;pwned\x07\x1b[2K", Risk: question.RiskHigh}
	wipe = question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Wipe the cache?", Destructive: true}
	pick = question.Question{Kind: question.KindChoice, Client: question.Client{Name: "cursor"}, Message: "Which branch?",
		Options: []question.Option{{Label: "main"}, {Label: "dev"}}}
)

// pendingIDs returns the ids 'asktray pending --json' lists.
func pendingIDs(t *testing.T, dir string) []string {
	t.Helper()
	var qs []question.Question
	if err := json.Unmarshal([]byte(run(t, dir, "pending", "--json").stdout), &qs); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(qs))
	for i, q := range qs {
		ids[i] = q.ID
	}
	return ids
}

// TestCLI_ApproveWithoutTerminalRefused: run as an agent's shell runs it
// (setsid, no controlling terminal), 'answer' cannot allow an approval or say
// yes to a destructive confirmation: exit 1, an error naming the dialog and
// the page, and the question stays pending. Denying and a plain answer work.
func TestCLI_ApproveWithoutTerminalRefused(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, deploy, wipe, pick)
	ids := p.askedIDs(t, 3)
	for _, tc := range []struct{ id, value string }{{ids[0], `"allow"`}, {ids[0], `true`}, {ids[1], `"yes"`}} {
		r := run(t, dir, "answer", tc.id, "--accept", tc.value)
		if r.code != ExitError || !strings.Contains(r.stderr, "dialog") || !strings.Contains(r.stderr, "page") ||
			!strings.Contains(r.stderr, "stays pending") || !strings.Contains(r.stderr, "no controlling terminal") {
			t.Errorf("answer %s --accept %s without a terminal: %+v, want exit 1 naming the dialog and the page", tc.id, tc.value, r)
		}
	}
	if got := pendingIDs(t, dir); len(got) != 3 {
		t.Fatalf("after the refusals %d are pending, want 3", len(got))
	}
	if r := run(t, dir, "answer"); r.code != ExitError || !strings.Contains(r.stderr, "dialog") || !strings.Contains(r.stderr, "page") {
		t.Errorf("answer (the walk) without a terminal: %+v, want exit 1 naming the dialog and the page", r)
	}
	if r := run(t, dir, "answer", ids[0], "--decline"); r.code != 0 {
		t.Errorf("deny without a terminal: %+v", r)
	}
	if r := run(t, dir, "answer", ids[1], "--accept", `"no"`); r.code != 0 {
		t.Errorf("no to a destructive confirm without a terminal: %+v", r)
	}
	if r := run(t, dir, "answer", ids[2], "--accept", `"dev"`); r.code != 0 {
		t.Errorf("a choice without a terminal: %+v", r)
	}
	for range 3 {
		id, js, _ := strings.Cut(p.next(t, "result "), " ")
		var res question.Result
		_ = json.Unmarshal([]byte(js), &res)
		if res.Via != question.ViaCLI || (id == ids[0] && res.Outcome != question.Declined) {
			t.Errorf("%s: %s, want via cli", id, js)
		}
	}
}

// TestCLI_AnswerWalk drives 'asktray answer' (no ID) through a real
// pseudo-terminal: it shows each question in full with the dialog's
// choices, takes arrow and number keys, ignores a password typed before the
// arming delay, refuses a wrong one (the question stays pending), takes the
// next approval within the terminal's grace period without asking, and
// records the terminal.
func TestCLI_AnswerWalk(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, deploy, wipe, pick)
	ids := p.askedIDs(t, 3)
	w := startPTY(t, dir, []string{armDelayEnv + "=1500"}, "answer")
	for _, want := range []string{"Question 1 of 3", "claude-code", "Action: ", "Deploy to production", "make deploy ENV=prod", "⟨U+001B⟩]0;pwned⟨U+0007⟩", "High risk: allow only if you expected this request.", "1. Allow once", "> 2. Deny"} {
		w.expect(want) // the default is never the one that approves
	}
	w.send("1")
	w.expect("type your login password")
	w.send(testPassword + "\r") // typed ahead, before the prompt armed: dropped
	time.Sleep(300 * time.Millisecond)
	if got := pendingIDs(t, dir); len(got) != 3 {
		t.Fatalf("a password typed before arming was taken: %d pending", len(got))
	}
	w.expect("ready: ")
	w.send("guess\r")
	w.expect("refused: wrong password (1 of 3")
	w.expect("Deploy to production") // shown again, still pending
	w.send("1")
	w.expect("ready: ")
	w.send(testPassword + "\r")
	w.expect(ids[0] + ": answered")

	w.expect("Wipe the cache?")
	w.expect("> 2. No")
	w.send("\x1b[A") // up to Yes
	w.expect("> 1. Yes")
	w.send("\r") // this terminal gave the password a moment ago: no prompt
	w.expect(ids[1] + ": answered")

	w.expect("Which branch?")
	w.send("\x1b[B\r") // down to dev
	w.expect(ids[2] + ": answered")
	w.expect("No pending questions left.")
	if code, out := w.wait(); code != 0 || strings.Contains(out, "\x1b]0;pwned") || strings.Contains(out, "\x1b[2K") {
		t.Fatalf("walk exit %d, or the agent's escape sequences reached the terminal:\n%q", code, out)
	}

	want := map[string]struct {
		value string
		via   question.Via
	}{ids[0]: {`"allow"`, question.ViaTerminal}, ids[1]: {`"yes"`, question.ViaTerminal}, ids[2]: {`["dev"]`, question.ViaTerminal}}
	for range 3 {
		id, js, _ := strings.Cut(p.next(t, "result "), " ")
		var res question.Result
		_ = json.Unmarshal([]byte(js), &res)
		if w := want[id]; res.Outcome != question.Answered || string(res.Value) != w.value || res.Via != w.via {
			t.Errorf("%s: %s, want %s via %s", id, js, w.value, w.via)
		}
	}
	if h := run(t, dir, "history"); !strings.Contains(h.stdout, "VIA") || !strings.Contains(h.stdout, "terminal") {
		t.Errorf("history does not show the channel:\n%s", h.stdout)
	}
}

// TestCLI_AnswerWalkOrdinary drives the walk through a pseudo-terminal for
// the answers that approve nothing: picks by number, a form field by field
// (a bad value is explained and asked again), a typed text, and a skip that
// leaves its question pending.
func TestCLI_AnswerWalkOrdinary(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	text := question.Question{Kind: question.KindText, Client: question.Client{Name: "codex"}, Message: "Commit message?", FreeText: true}
	notice := question.Question{Kind: question.KindNotice, Client: question.Client{Name: "codex"}, Message: "Build finished"}
	p := startApp(t, dir, choice, form, text, notice)
	ids := p.askedIDs(t, 4)
	w := startPTY(t, dir, []string{armDelayEnv + "=0"}, "answer")
	w.expect("Which tests should run?")
	w.send("1") // Pick…
	w.expect("Numbers separated by commas")
	w.send("1, 2\r")
	w.expect(ids[0] + ": answered")

	w.expect("Release details")
	w.send("1") // Fill in the form…
	w.expect("version (text, required): ")
	w.send("\r")
	w.expect("at least 1 character")
	w.send("1.2\r")
	w.expect("draft (y or n): ")
	w.send("y\r")
	w.expect("build (a whole number")
	w.send("0\r")
	w.expect("build (a whole number") // 0 is below the minimum: asked again
	w.send("7\r")
	w.expect(ids[1] + ": answered")

	w.expect("Commit message?")
	w.send("1") // Type an answer…
	w.expect("Answer (Enter to send")
	w.send("fix the build\r")
	w.expect(ids[2] + ": answered")

	w.expect("Build finished")
	w.expect("4. Skip for now")
	w.send("4")
	w.expect("No pending questions left.")
	if code, out := w.wait(); code != 0 {
		t.Fatalf("walk exit %d\n%s", code, out)
	}
	want := map[string]string{ids[0]: `["unit","e2e"]`, ids[1]: `{"version":"1.2","draft":true,"build":7}`, ids[2]: `"fix the build"`}
	for range 3 {
		id, js, _ := strings.Cut(p.next(t, "result "), " ")
		var res question.Result
		_ = json.Unmarshal([]byte(js), &res)
		if res.Outcome != question.Answered || string(res.Value) != want[id] || res.Via != question.ViaTerminal {
			t.Errorf("%s: %s, want %s via terminal", id, js, want[id])
		}
	}
	if got := pendingIDs(t, dir); len(got) != 1 || got[0] != ids[3] {
		t.Errorf("pending after the walk: %v, want only the skipped %s", got, ids[3])
	}
}

// TestCLI_AnswerWalkStopsOnSIGTERM: raw mode turns Ctrl-C into a key, so
// the walk must still end on SIGTERM while it waits for one.
func TestCLI_AnswerWalkStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir, pick)
	w := startPTY(t, dir, nil, "answer")
	w.expect("Which branch?")
	w.expect("to quit")
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, out := w.wait(); code != ExitError {
		t.Fatalf("walk after SIGTERM: exit %d, want %d\n%s", code, ExitError, out)
	}
	if got := pendingIDs(t, dir); len(got) != 1 {
		t.Errorf("pending after the stopped walk: %v, want the question", got)
	}
}
