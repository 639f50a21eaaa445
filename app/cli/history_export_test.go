package cli

import (
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
)

func TestCLI_HistoryExport(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	tricky := question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "s-42"},
		Header: "Clean up", Message: "Delete \"build\", cache and logs?\nThis frees 2.3 GB."}
	p := startApp(t, dir, tricky, choice, form)
	ids := p.askedIDs(t, 3)
	if r := run(t, dir, "answer", ids[0], "--accept", `"yes"`, "--note", `keep "logs", please`); r.code != 0 {
		t.Fatalf("answer confirm: %+v", r)
	}
	if r := run(t, dir, "answer", ids[2], "--accept", `{"version":"1.4.0, final","draft":false}`); r.code != 0 {
		t.Fatalf("answer form: %+v", r)
	}

	// CSV: a header and one row per question, newest first, fields intact.
	r := run(t, dir, "history", "--export", "csv")
	if r.code != 0 {
		t.Fatalf("export csv: %+v", r)
	}
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("parse csv: %v, %d rows:\n%s", err, len(rows), r.stdout)
	}
	if got := strings.Join(rows[0], ","); got != "id,created,client,client_version,session_id,kind,header,question,outcome,reason,decided_by,via,answer,note,decided_at,elapsed_ms,verdict,afterwards,"+
		"summary,tool,command,path,cwd,agent_mode,rule_id,rule_scope,host" {
		t.Fatalf("header %q", got)
	}
	want := [][]string{ // id, outcome, answer, via
		{ids[2], "answered", `{"version":"1.4.0, final","draft":false}`, "cli"},
		{ids[1], "pending", "", ""},
		{ids[0], "answered", `"yes"`, "cli"},
	}
	for i, w := range want {
		row := rows[i+1]
		if got := []string{row[0], row[8], row[12], row[11]}; !reflect.DeepEqual(got, w) {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
	if row := rows[3]; row[7] != tricky.Message || row[13] != `keep "logs", please` || row[2] != "claude-code" || row[4] != "s-42" || row[15] == "" {
		t.Errorf("confirm row = %q", row)
	}

	// JSON: the same items 'history --json' prints.
	r = run(t, dir, "history", "--export", "json")
	var exported []control.Item
	if err := json.Unmarshal([]byte(r.stdout), &exported); r.code != 0 || err != nil || len(exported) != 3 {
		t.Fatalf("export json: %v %+v", err, r)
	}
	r = run(t, dir, "history", "--json")
	var listed []control.Item
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(exported, listed) {
		t.Errorf("export json differs from history --json:\n%+v\n%+v", exported, listed)
	}
	if exported[1].Result != nil || exported[0].Result.Outcome != question.Answered || exported[2].Question.Message != tricky.Message {
		t.Errorf("exported %+v", exported)
	}

	// Filters apply; bad flags are usage errors.
	r = run(t, dir, "history", "--export", "CSV", "--outcome", "answered", "--client", "vscode")
	if rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll(); err != nil || len(rows) != 2 || rows[1][0] != ids[2] {
		t.Errorf("filtered export: %v %q", err, r.stdout)
	}
	// The table names each verdict as the history window does, and
	// --verdict filters by it.
	r = run(t, dir, "history")
	lines := strings.Split(r.stdout, "\n")
	for i, want := range []string{"  form  Answered  ", "  multi_choice  Pending  ", "  confirm  Answered  "} {
		if line := strings.Join(strings.Fields(lines[i+1]), "  "); !strings.Contains(line, want) {
			t.Errorf("history line %q lacks %q", lines[i+1], want)
		}
	}
	r = run(t, dir, "history", "--verdict", "allowed,denied", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) != 1 || listed[0].Question.ID != ids[0] || listed[0].Verdict != question.VerdictAllowed {
		t.Errorf("--verdict allowed,denied: %v %+v", err, r)
	}
	if r = run(t, dir, "history", "--verdict", "by_rule"); !strings.Contains(r.stdout, "No questions match.") {
		t.Errorf("--verdict by_rule:\n%s", r.stdout)
	}
	if r = run(t, dir, "history", "--verdict", "approved"); r.code != ExitError || !strings.Contains(r.stderr, "verdict") {
		t.Errorf("--verdict approved: %+v", r)
	}
	if r = run(t, dir, "history", "--export", "xml"); r.code != ExitUsage || !strings.Contains(r.stderr, `"xml"`) {
		t.Errorf("--export xml: %+v", r)
	}
	if r = run(t, dir, "history", "--export", "json", "--json"); r.code != ExitUsage {
		t.Errorf("--export with --json: %+v", r)
	}
}
