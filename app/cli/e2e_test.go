package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
)

var (
	confirm = question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code", Version: "2.1.3"}, Message: "Delete the build directory?"}
	choice  = question.Question{Kind: question.KindMultiChoice, Client: question.Client{Name: "cursor"}, Message: "Which tests should run?",
		Options: []question.Option{{Label: "unit"}, {Label: "e2e"}, {Label: "lint"}}, MaxSelect: 2}
	form = question.Question{Kind: question.KindForm, Client: question.Client{Name: "vscode"}, Message: "Release details",
		Schema: json.RawMessage(`{"type":"object","properties":{"version":{"type":"string","minLength":1},"draft":{"type":"boolean"},"build":{"type":"integer","minimum":1}},"required":["version"]}`)}
)

func TestCLI_VersionAndUsage(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	if r := run(t, dir, "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "asktray ") {
		t.Fatalf("version: %+v", r)
	}
	if r := run(t, dir, "frobnicate"); r.code != ExitUsage || !strings.Contains(r.stderr, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: %+v", r)
	}
	if r := run(t, dir, "answer", "x", "--accept", "yes"); r.code != ExitUsage || !strings.Contains(r.stderr, "is not JSON") {
		t.Fatalf("unquoted accept: %+v", r)
	}
	if r := run(t, dir, "answer", "x", "--decline", "--cancel"); r.code != ExitUsage {
		t.Fatalf("two actions: %+v", r)
	}
	if r := run(t, dir, "history", "--limit", "0"); r.code != ExitUsage || !strings.Contains(r.stderr, "--limit") {
		t.Fatalf("bad limit: %+v", r)
	}
}

func TestCLI_NoRunningApp(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	for _, args := range [][]string{{"pending"}, {"url"}, {"history"}, {"answer", "id", "--cancel"}, {"snooze", "id", "5m"}} {
		if r := run(t, dir, args...); r.code != ExitNoApp || !strings.Contains(r.stderr, "no running app") {
			t.Errorf("%v: code %d stderr %q, want 3", args, r.code, r.stderr)
		}
	}
}

func TestCLI_EndToEnd(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm, choice, form)
	ids := p.askedIDs(t, 3)

	// url --json finds the app; the secrets are private.
	r := run(t, dir, "url", "--json")
	var info URLInfo
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &info) != nil || !strings.HasPrefix(info.URL, "http://127.0.0.1:") || len(info.Token) != 64 {
		t.Fatalf("url --json: %+v", r)
	}
	if runtime.GOOS != "windows" {
		for name, want := range map[string]os.FileMode{"": 0o700, datadir.TokenFile: 0o600, datadir.SocketFile: 0o600, datadir.InstanceFile: 0o600, datadir.DatabaseFile: 0o600, "log/asktray.log": 0o600} {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil || fi.Mode().Perm() != want {
				t.Errorf("%q: mode %v err %v, want %v", name, fi.Mode().Perm(), err, want)
			}
		}
	}

	// pending lists all three, in both formats.
	r = run(t, dir, "pending", "--json")
	var pend []question.Question
	if err := json.Unmarshal([]byte(r.stdout), &pend); err != nil || len(pend) != 3 {
		t.Fatalf("pending --json: %v %+v", err, r)
	}
	r = run(t, dir, "pending")
	for _, want := range []string{"ID", "CLIENT", "claude-code", "cursor", "multi_choice", "Delete the build directory?"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("pending output lacks %q:\n%s", want, r.stdout)
		}
	}

	// A value that does not fit is refused and the question stays pending.
	r = run(t, dir, "answer", ids[1], "--accept", `["unit","e2e","lint"]`)
	if r.code != ExitError || !strings.Contains(r.stderr, "pick at most 2, got 3") || !strings.Contains(r.stderr, "stays pending") {
		t.Fatalf("over-long selection: %+v", r)
	}
	r = run(t, dir, "answer", ids[2], "--accept", `{"version":"1.2.0","draft":"yes"}`)
	if r.code != ExitError || !strings.Contains(r.stderr, "content.draft") {
		t.Fatalf("bad form: %+v", r)
	}
	if r = run(t, dir, "pending", "--json"); strings.Count(r.stdout, `"id"`) != 3 {
		t.Fatalf("refused answers ended a question:\n%s", r.stdout)
	}

	// Good answers reach the waiter inside the app with their JSON types.
	if r = run(t, dir, "answer", ids[0], "--accept", `"yes"`); r.code != 0 || !strings.Contains(r.stdout, "answered") {
		t.Fatalf("answer confirm: %+v", r)
	}
	if r = run(t, dir, "answer", ids[1], "--accept", `["e2e","unit"]`); r.code != 0 {
		t.Fatalf("answer multi: %+v", r)
	}
	if r = run(t, dir, "answer", ids[2], "--accept", `{"build":42,"version":"1.2.0","draft":true}`); r.code != 0 {
		t.Fatalf("answer form: %+v", r)
	}
	want := map[string]string{ids[0]: `"yes"`, ids[1]: `["e2e","unit"]`, ids[2]: `{"version":"1.2.0","draft":true,"build":42}`}
	for range 3 {
		line := p.next(t, "result ")
		id, js, _ := strings.Cut(line, " ")
		var res question.Result
		if err := json.Unmarshal([]byte(js), &res); err != nil {
			t.Fatal(err)
		}
		if res.Outcome != question.Answered || res.Via != question.ViaCLI || res.DecidedBy != question.ByHuman || string(res.Value) != want[id] {
			t.Errorf("waiter for %s got %s, want value %s via cli", id, js, want[id])
		}
	}

	// Answering twice is refused.
	if r = run(t, dir, "answer", ids[0], "--decline"); r.code != ExitError || !strings.Contains(r.stderr, "too late") {
		t.Fatalf("second answer: %+v", r)
	}
	if r = run(t, dir, "answer", "no-such-id", "--decline"); r.code != ExitError || !strings.Contains(r.stderr, "no such question") {
		t.Fatalf("unknown id: %+v", r)
	}

	// History shows the outcomes, filtered and searched.
	r = run(t, dir, "history", "--json")
	var items []control.Item
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 3 {
		t.Fatalf("history --json: %v %+v", err, r)
	}
	if items[0].Question.ID != ids[2] || items[0].Result == nil || items[0].Result.Outcome != question.Answered {
		t.Fatalf("history not newest first / without result: %+v", items[0])
	}
	r = run(t, dir, "history", "--client", "cursor", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 1 || items[0].Question.ID != ids[1] {
		t.Fatalf("history --client: %+v", r)
	}
	r = run(t, dir, "history", "--search", "build directory")
	if r.code != 0 || !strings.Contains(r.stdout, "claude-code") || strings.Contains(r.stdout, "cursor") {
		t.Fatalf("history --search:\n%s", r.stdout)
	}
	if r = run(t, dir, "history", "--outcome", "declined"); !strings.Contains(r.stdout, "No questions match.") {
		t.Fatalf("history --outcome declined:\n%s", r.stdout)
	}
	if r = run(t, dir, "history", "--outcome", "maybe"); r.code != ExitError || !strings.Contains(r.stderr, "outcome") {
		t.Fatalf("bad outcome filter: %+v", r)
	}

	if code := p.stop(t); code != 0 {
		t.Fatalf("app exited with %d on SIGTERM", code)
	}
	if _, err := os.Stat(filepath.Join(dir, datadir.InstanceFile)); !os.IsNotExist(err) {
		t.Fatalf("instance file left behind: %v", err)
	}
}

func TestCLI_SnoozeAndDecline(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm)
	id := p.askedIDs(t, 1)[0]
	r := run(t, dir, "snooze", id, "1h")
	if r.code != 0 || !strings.Contains(r.stdout, "snoozed until") {
		t.Fatalf("snooze: %+v", r)
	}
	r = run(t, dir, "pending")
	if !strings.Contains(r.stdout, "(snoozed)") {
		t.Fatalf("pending does not show the snooze:\n%s", r.stdout)
	}
	if r = run(t, dir, "snooze", id, "soon"); r.code != ExitUsage {
		t.Fatalf("bad duration: %+v", r)
	}
	if r = run(t, dir, "answer", id, "--decline", "--note", "wrong branch"); r.code != 0 || !strings.Contains(r.stdout, "declined") {
		t.Fatalf("decline: %+v", r)
	}
	var res question.Result
	_, js, _ := strings.Cut(p.next(t, "result "), " ")
	if err := json.Unmarshal([]byte(js), &res); err != nil || res.Outcome != question.Declined || res.Note != "wrong branch" {
		t.Fatalf("waiter got %s", js)
	}
}

func TestCLI_SecondStartAndRestartInterrupts(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm, choice)
	ids := p.askedIDs(t, 2)

	// A second app on the same data dir says where the first one is and fails.
	r := run(t, dir, "--headless", "--addr", "127.0.0.1:0")
	if r.code == 0 || !strings.Contains(r.stderr, "already running") || !strings.Contains(r.stderr, "http://127.0.0.1:") {
		t.Fatalf("second start: %+v", r)
	}

	// A crash leaves the questions pending in the store...
	p.kill()
	// ...and the next start records them as interrupted, decided by the app.
	startApp(t, dir)
	r = run(t, dir, "history", "--json")
	var items []control.Item
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 2 {
		t.Fatalf("history after restart: %v %+v", err, r)
	}
	for _, it := range items {
		if it.Result == nil || it.Result.Outcome != question.Interrupted || it.Result.DecidedBy != question.ByApp {
			t.Fatalf("question %s after restart: %+v", it.Question.ID, it.Result)
		}
	}
	if r = run(t, dir, "answer", ids[0], "--accept", `"yes"`); r.code != ExitError || !strings.Contains(r.stderr, "too late") {
		t.Fatalf("answering an interrupted question: %+v", r)
	}
	if r = run(t, dir, "pending"); !strings.Contains(r.stdout, "No pending questions.") {
		t.Fatalf("pending after restart:\n%s", r.stdout)
	}
}

func TestCLI_GracefulStopInterruptsPending(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm)
	id := p.askedIDs(t, 1)[0]
	p.stop(t)
	p2 := startApp(t, dir)
	_ = p2
	r := run(t, dir, "history", "--json", "--outcome", "interrupted")
	var items []control.Item
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 1 || items[0].Question.ID != id {
		t.Fatalf("history: %v %+v", err, r)
	}
	if items[0].Result.Reason != question.ReasonStopped {
		t.Fatalf("reason %q", items[0].Result.Reason)
	}
}

func TestParseSnooze(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 22, 30, 0, 0, time.UTC)
	got, err := ParseSnooze("tomorrow", now)
	if err != nil || !got.Equal(time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("tomorrow: %v %v", got, err)
	}
	if got, err := ParseSnooze("90m", now); err != nil || got.Sub(now) != 90*time.Minute {
		t.Fatalf("90m: %v %v", got, err)
	}
	for _, bad := range []string{"", "-5m", "0s", "25h", "soon"} {
		if _, err := ParseSnooze(bad, now); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range answerArgCases {
		req, err := ParseAnswer(tc.accept, tc.acceptSet, tc.decline, tc.cancel, "")
		if (err != nil) != tc.wantErr {
			t.Errorf("%+v: err %v", tc, err)
			continue
		}
		if err == nil && string(req.Action) != tc.action {
			t.Errorf("%+v: action %s", tc, req.Action)
		}
	}
}

var answerArgCases = []struct {
	accept                     string
	acceptSet, decline, cancel bool
	action                     string
	wantErr                    bool
}{
	{`"yes"`, true, false, false, "accept", false},
	{`["a","b"]`, true, false, false, "accept", false},
	{`{"name":"Ada"}`, true, false, false, "accept", false},
	{`yes`, true, false, false, "", true},
	{``, true, false, false, "", true},
	{``, false, true, false, "decline", false},
	{``, false, false, true, "cancel", false},
	{``, false, false, false, "", true},
	{`"x"`, true, true, false, "", true},
	// Duplicate and case-variant keys parse as JSON here; the broker's
	// answer check refuses them by name (FuzzParseAnswer checks that).
	{`{"version":"1","version":"2"}`, true, false, false, "accept", false},
	{`{"version":"1","Version":"2"}`, true, false, false, "accept", false},
	{`{"selected":["unit"],"selected":["lint"]}`, true, false, false, "accept", false},
}

// FuzzParseAnswer follows a CLI answer from its flags to the broker's
// check: ParseAnswer succeeds exactly when one of the flags is given (and
// --accept holds JSON), keeps the value verbatim, and whatever the answer
// check accepts for the sample questions is a fixed point of it.
func FuzzParseAnswer(f *testing.F) {
	for _, tc := range answerArgCases {
		f.Add(tc.accept, tc.acceptSet, tc.decline, tc.cancel)
	}
	f.Fuzz(func(t *testing.T, accept string, acceptSet, decline, cancel bool) {
		req, err := ParseAnswer(accept, acceptSet, decline, cancel, "")
		one := btoi(acceptSet)+btoi(decline)+btoi(cancel) == 1
		wantOK := one && (!acceptSet || json.Valid([]byte(strings.TrimSpace(accept))))
		if (err == nil) != wantOK {
			t.Fatalf("ParseAnswer(%q, %v, %v, %v) error %v, want ok=%v", accept, acceptSet, decline, cancel, err, wantOK)
		}
		if err != nil {
			return
		}
		switch {
		case decline && req.Action != question.Decline, cancel && req.Action != question.Cancel:
			t.Fatalf("action %s for decline=%v cancel=%v", req.Action, decline, cancel)
		case acceptSet && (req.Action != question.Accept || string(req.Value) != strings.TrimSpace(accept)):
			t.Fatalf("accept %q became %s %q", accept, req.Action, req.Value)
		}
		for _, q := range []question.Question{confirm, choice, form} {
			got, err := q.CheckResponse(question.Response{Action: req.Action, Value: req.Value})
			if err != nil {
				if !errors.Is(err, question.ErrInvalid) {
					t.Fatalf("answer check error does not wrap ErrInvalid: %v", err)
				}
				continue
			}
			if q.Kind == question.KindForm && hasKeyOutside(req.Value, "version", "draft", "build") {
				t.Fatalf("form answer %s with a key outside the schema accepted", req.Value)
			}
			if got.Action == question.Accept {
				again, err := q.CheckResponse(got)
				if err != nil || string(again.Value) != string(got.Value) {
					t.Fatalf("%s: canonical %s not a fixed point: %v %s", q.Kind, got.Value, err, again.Value)
				}
			}
		}
	})
}

// hasKeyOutside reports whether raw is a JSON object with a key (matched
// exactly, so "Version" is outside) that is not one of names.
func hasKeyOutside(raw json.RawMessage, names ...string) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return false
		}
		if ks, _ := k.(string); !slices.Contains(names, ks) {
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
