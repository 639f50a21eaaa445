package history

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// exportStore returns a store with realistic rows, newest last, and their
// ids newest first.
func exportStore(t *testing.T) (*SQLite, []string) {
	t.Helper()
	s := openSQLite(t)
	msgs := []struct {
		q question.Question
		r *question.Result
	}{
		{question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "sess-7f3a"},
			Header: "Delete build/", Message: "Delete the \"build\" directory, caches and logs?\nThis frees 2.3 GB."},
			&question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaDialog, Value: json.RawMessage(`"yes"`), Note: "ok, but keep \"logs\", please"}},
		{question.Question{Kind: question.KindMultiChoice, Client: question.Client{Name: "cursor"}, Message: "Which tests should run?",
			Options: []question.Option{{Label: "unit"}, {Label: "e2e", Description: "slow, needs Docker"}}},
			&question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaCLI, Value: json.RawMessage(`["unit","e2e"]`)}},
		{question.Question{Kind: question.KindForm, Client: question.Client{Name: "vscode", Version: "1.96"}, Message: "Release details",
			Schema: json.RawMessage(`{"type":"object","properties":{"version":{"type":"string"},"draft":{"type":"boolean"}}}`)},
			&question.Result{Outcome: question.Answered, DecidedBy: question.ByHuman, Via: question.ViaDialog, Value: json.RawMessage(`{"version":"1.4.0, final","draft":false}`)}},
		{question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"}, Message: "=HYPERLINK(\"http://evil.example\",\"click\")"},
			&question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByTimeout, Reason: question.ReasonTimeout, Afterwards: question.ReasonAgentProceeded}},
		{question.Question{Kind: question.KindText, Client: question.Client{Name: "claude-code"}, Message: "- name the branch\n- then push"}, nil},
	}
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		q := m.q
		q.ID = fmt.Sprintf("q%02d", i)
		q.Created = base.Add(time.Duration(i) * time.Minute)
		q.Deadline = q.Created.Add(question.DefaultTimeout)
		var r *question.Result
		if m.r != nil {
			rr := *m.r
			rr.DecidedAt = q.Created.Add(time.Duration(i+1) * 1500 * time.Millisecond)
			r = &rr
		}
		add(t, s, q, r)
		ids[len(msgs)-1-i] = q.ID
	}
	return s, ids
}

func TestExport_JSON(t *testing.T) {
	t.Parallel()
	s, ids := exportStore(t)
	var buf bytes.Buffer
	n, err := Export(context.Background(), s, Filter{Limit: 2, Cursor: "ignored"}, "JSON", &buf)
	if err != nil || n != len(ids) {
		t.Fatalf("Export = %d, %v; want %d", n, err, len(ids))
	}
	var items []ExportItem
	if err := json.Unmarshal(buf.Bytes(), &items); err != nil {
		t.Fatalf("parse: %v\n%s", err, buf.String())
	}
	if len(items) != len(ids) {
		t.Fatalf("%d items, want %d", len(items), len(ids))
	}
	for i, it := range items {
		if it.Question.ID != ids[i] {
			t.Errorf("item %d is %s, want %s (newest first)", i, it.Question.ID, ids[i])
		}
	}
	if it := items[0]; it.Result != nil || it.ElapsedMS != 0 || it.Verdict != question.VerdictPending || it.Question.Message != "- name the branch\n- then push" {
		t.Errorf("pending item = %+v", it)
	}
	if it := items[4]; it.Result == nil || it.ElapsedMS != 1500 || it.Verdict != question.VerdictAllowed || string(it.Result.Value) != `"yes"` ||
		it.Question.Message != "Delete the \"build\" directory, caches and logs?\nThis frees 2.3 GB." || it.Question.Client.SessionID != "sess-7f3a" {
		t.Errorf("answered item = %+v", it)
	}
	// The pending item has result null and no elapsed_ms, like control.Item.
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw[0]["result"]) != "null" || raw[0]["elapsed_ms"] != nil || string(raw[1]["elapsed_ms"]) != "6000" {
		t.Errorf("raw items: %s / %s", raw[0], raw[1])
	}
	if !strings.HasPrefix(buf.String(), "[\n  {\n    \"question\": {") || !strings.HasSuffix(buf.String(), "\n  }\n]\n") {
		t.Errorf("not indented like --json:\n%s", buf.String())
	}
}

func TestExport_CSV(t *testing.T) {
	t.Parallel()
	s, ids := exportStore(t)
	var buf bytes.Buffer
	n, err := Export(context.Background(), s, Filter{}, FormatCSV, &buf)
	if err != nil || n != len(ids) {
		t.Fatalf("Export = %d, %v", n, err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if len(rows) != len(ids)+1 || strings.Join(rows[0], ",") != "id,created,client,client_version,session_id,kind,header,question,outcome,reason,decided_by,via,answer,note,decided_at,elapsed_ms,verdict,afterwards,"+
		"summary,tool,command,path,cwd,agent_mode,rule_id,rule_scope,host" {
		t.Fatalf("rows %d, header %q", len(rows), rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	get := func(id, name string) string {
		for _, r := range rows[1:] {
			if r[col["id"]] == id {
				return r[col[name]]
			}
		}
		t.Fatalf("no row %s", id)
		return ""
	}
	for i, r := range rows[1:] {
		if r[0] != ids[i] {
			t.Errorf("row %d is %s, want %s", i, r[0], ids[i])
		}
	}
	checks := []struct{ id, col, want string }{
		{"q00", "question", "Delete the \"build\" directory, caches and logs?\nThis frees 2.3 GB."},
		{"q00", "note", "ok, but keep \"logs\", please"},
		{"q00", "answer", `"yes"`},
		{"q00", "created", "2025-03-14T09:26:53Z"},
		{"q00", "decided_at", "2025-03-14T09:26:55Z"},
		{"q00", "elapsed_ms", "1500"},
		{"q00", "client", "claude-code"},
		{"q00", "client_version", "2.1.3"},
		{"q00", "session_id", "sess-7f3a"},
		{"q00", "header", "Delete build/"},
		{"q00", "via", "dialog"},
		{"q00", "decided_by", "human"},
		{"q01", "answer", `["unit","e2e"]`},
		{"q01", "kind", "multi_choice"},
		{"q02", "answer", `{"version":"1.4.0, final","draft":false}`},
		{"q03", "outcome", "auto_rejected"},
		{"q03", "reason", "timeout"},
		{"q03", "decided_by", "timeout"},
		{"q03", "answer", ""},
		{"q03", "question", `'=HYPERLINK("http://evil.example","click")`},
		{"q04", "outcome", "pending"},
		{"q04", "question", "'- name the branch\n- then push"},
		{"q04", "decided_at", ""},
		{"q04", "elapsed_ms", ""},
		{"q00", "verdict", "allowed"},   // a confirm answered yes
		{"q01", "verdict", "answered"},  // a multi-choice
		{"q03", "verdict", "timed_out"}, // an approval that timed out
		{"q04", "verdict", "pending"},
		{"q03", "afterwards", "agent_proceeded"}, // learnt after the end (Broker.Annotate)
		{"q00", "afterwards", ""},
		{"q04", "afterwards", ""},
	}
	for _, c := range checks {
		if got := get(c.id, c.col); got != c.want {
			t.Errorf("%s %s = %q, want %q", c.id, c.col, got, c.want)
		}
	}
}

// TestExport_CSVSubject: a hook approval's row says what it would do: its
// summary, tool, command (control characters marked, a formula defused),
// working directory, the agent's mode, the rule that decided it and the
// remote host it came from; a file tool's row its path, and a local
// question's host is empty.
func TestExport_CSVSubject(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	bash := question.Question{ID: "h1", Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
		Client: question.Client{Name: "claude-code"}, Input: json.RawMessage(`{"command":"npm test \u001b[2J"}`),
		Cwd: "/home/ada/src/shop", AgentMode: "acceptEdits", Host: "build-01", Created: base, Deadline: base.Add(question.DefaultTimeout)}
	edit := question.Question{ID: "h2", Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Edit", Message: "Edit",
		Client: question.Client{Name: "claude-code"}, Input: json.RawMessage(`{"file_path":"-x.go","old_string":"a","new_string":"b"}`),
		Created: base.Add(time.Minute), Deadline: base.Add(time.Minute + question.DefaultTimeout)}
	add(t, s, bash, &question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Via: question.ViaRule,
		RuleID: "r7", RuleScope: "session", DecidedAt: base.Add(time.Second)})
	add(t, s, edit, nil)
	var buf bytes.Buffer
	if _, err := Export(context.Background(), s, Filter{}, FormatCSV, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("rows %d: %v", len(rows), err)
	}
	got := map[string]string{}
	for _, r := range rows[1:] {
		for i, h := range rows[0] {
			got[r[0]+" "+h] = r[i]
		}
	}
	for k, want := range map[string]string{
		"h1 summary": "npm test ⟨U+001B⟩[2J in /home/ada/src/shop", "h1 tool": "Bash", "h1 command": "npm test ⟨U+001B⟩[2J",
		"h1 path": "", "h1 cwd": "/home/ada/src/shop", "h1 agent_mode": "acceptEdits", "h1 rule_id": "r7", "h1 rule_scope": "session", "h1 host": "build-01",
		"h2 summary": "Edit -x.go", "h2 tool": "Edit", "h2 command": "", "h2 path": "'-x.go", "h2 rule_id": "", "h2 agent_mode": "", "h2 host": "",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
}

func TestExport_FilterAndPaging(t *testing.T) {
	t.Parallel()
	store := openSQLite(t)
	// Pages of 7 rows instead of MaxLimit: the same paging, over fewer
	// rows (a real store, run with the race detector, takes a while per row).
	s := smallPages{store, 7}
	const n = 2*7 + 17
	for i := range n {
		q := newQuestion(fmt.Sprintf("p%05d", i), base.Add(time.Duration(i)*time.Second))
		var r *question.Result
		if i%3 == 0 {
			r = answered("fine", q.Created.Add(time.Second))
		}
		add(t, store, q, r)
	}
	var buf bytes.Buffer
	got, err := Export(context.Background(), s, Filter{}, FormatCSV, &buf)
	rows, perr := csv.NewReader(&buf).ReadAll()
	if err != nil || perr != nil || got != n || len(rows) != n+1 {
		t.Fatalf("Export = %d, %v; parse %v; %d rows", got, err, perr, len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		if seen[r[0]] {
			t.Fatalf("row %s twice", r[0])
		}
		seen[r[0]] = true
	}
	buf.Reset()
	got, err = Export(context.Background(), s, Filter{Outcomes: []question.State{question.State(question.Answered)}}, FormatJSON, &buf)
	var items []ExportItem
	if err != nil || json.Unmarshal(buf.Bytes(), &items) != nil || got != (n+2)/3 || len(items) != got {
		t.Fatalf("answered only: %d items, %v", got, err)
	}
	for _, it := range items {
		if it.Result == nil || it.Result.Outcome != question.Answered {
			t.Fatalf("item %s is not answered", it.Question.ID)
		}
	}
}

func TestExport_Empty(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	n, err := Export(context.Background(), openSQLite(t), Filter{}, FormatJSON, &buf)
	if err != nil || n != 0 || buf.String() != "[]\n" {
		t.Fatalf("Export = %d, %v, %q", n, err, buf.String())
	}
	var items []ExportItem
	if err := json.Unmarshal(buf.Bytes(), &items); err != nil || len(items) != 0 {
		t.Fatalf("parse: %v", err)
	}
}

func TestExport_Errors(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if _, err := Export(context.Background(), openSQLite(t), Filter{}, "xml", &buf); err == nil || !strings.Contains(err.Error(), `"xml"`) || buf.Len() != 0 {
		t.Errorf("unknown format: %v, wrote %q", err, buf.String())
	}
	boom := errors.New("socket closed")
	failing := ListerFunc(func(context.Context, Filter) (Page, error) { return Page{}, boom })
	if _, err := Export(context.Background(), failing, Filter{}, FormatCSV, &buf); !errors.Is(err, boom) || !strings.Contains(err.Error(), "export history as csv") {
		t.Errorf("lister error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Export(ctx, openSQLite(t), Filter{}, FormatJSON, &buf); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// smallPages is a Lister whose pages hold at most max records.
type smallPages struct {
	Store
	max int
}

func (p smallPages) List(ctx context.Context, f Filter) (Page, error) {
	f.Limit = min(f.Limit, p.max)
	return p.Store.List(ctx, f)
}

// TestExport_CSVMarksControls: an agent's escape sequences and C1 controls
// reach a CSV export as markers, never raw (issue 33 item 6: a CSV printed
// to a terminal must not drive it), while line breaks stay.
func TestExport_CSVMarksControls(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"\x1b]0;pwned\x07title": "⟨U+001B⟩]0;pwned⟨U+0007⟩title",
		"a\u009b31mred\u009d":   "a⟨U+009B⟩31mred⟨U+009D⟩",
		"two\nlines\tand a tab": "two\nlines\tand a tab",
		"=1+2":                  "'=1+2",
		"\x1b[2J=clear":         "⟨U+001B⟩[2J=clear",
	} {
		if got := csvText(in); got != want {
			t.Errorf("csvText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := markControls("\"\u009b\""); got != `"⟨U+009B⟩"` {
		t.Errorf("an answer's C1 control: %q", got)
	}
}
