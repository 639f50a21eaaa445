package nodeclients

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/mcpbridge"
)

// inspectorCLI is the Inspector's launcher; `--cli` must come first.
const inspectorCLI = "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

// inspector runs `mcp-inspector --cli URL --transport http ARGS... --format
// json` and returns its exit code and output.
func inspector(t *testing.T, url string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	p := startNode(t, 60*time.Second, nodeEnv(t),
		append([]string{inspectorCLI, "--cli", url, "--transport", "http", "--format", "json"}, args...)...)
	var out strings.Builder
	for l := range p.lines {
		out.WriteString(l + "\n")
	}
	return p.wait(), out.String(), p.stderr.String()
}

// TestInspectorCLI: the MCP Inspector's CLI (v2, Node 22) lists the tools
// (with its schema portability check) and calls one with the bearer header; the call blocks until the question is
// answered through `asktray answer`. Without the header, or with a wrong
// token, the server's 401 makes the Inspector exit 3 (auth_required).
func TestInspectorCLI(t *testing.T) {
	t.Parallel()
	requireNode(t)
	app := startApp(t, "")
	auth := "Authorization: Bearer " + app.token

	// Refused: no header, and a wrong token. Run beside the real calls.
	type refusal struct {
		name   string
		code   int
		stderr string
	}
	refused := make(chan refusal, 2)
	for name, extra := range map[string][]string{
		"no header":   nil,
		"wrong token": {"--header", "Authorization: Bearer " + strings.Repeat("0", 64)},
	} {
		go func() {
			code, _, stderr := inspector(t, app.url, append([]string{"--method", "tools/list"}, extra...)...)
			refused <- refusal{name, code, stderr}
		}()
	}

	// tools/list with the header gives exactly the bridge's tools; --strict
	// also has the Inspector check their schemas for portability problems
	// (exit 6 on an error-severity one).
	code, out, stderr := inspector(t, app.url, "--header", auth, "--method", "tools/list", "--strict")
	var list struct {
		Result struct {
			Tools []struct {
				Name         string         `json:"name"`
				OutputSchema map[string]any `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("inspector tools/list: exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}
	var got, want []string
	for _, tl := range list.Result.Tools {
		got = append(got, tl.Name)
		if tl.OutputSchema == nil {
			t.Errorf("tool %s has no outputSchema", tl.Name)
		}
	}
	for _, tl := range mcpbridge.Tools() {
		want = append(want, tl.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("inspector tools/list: %v, want %v", got, want)
	}

	// A blocking ask_text, answered through the CLI while the Inspector waits.
	q, sc := inspectorAskText(t, app, nil, "Name of the release?", `"v1.2"`)
	if q.Client.Name != "inspector-cli" {
		t.Errorf("question from client %q, want inspector-cli", q.Client.Name)
	}
	if sc["question_id"] != q.ID || sc["status"] != "answered" || sc["answer"] != "v1.2" || sc["source"] != "free_text" ||
		sc["answered_by"] != "human" || sc["via"] != "cli" {
		t.Errorf("inspector tools/call structuredContent: %v", sc)
	}

	for range 2 {
		r := <-refused
		var e struct {
			Error struct{ Code string } `json:"error"`
		}
		// The error is one JSON line on stderr.
		_ = json.Unmarshal([]byte(r.stderr), &e)
		if r.code != 3 || e.Error.Code != "auth_required" {
			t.Errorf("inspector tools/list with %s: exit %d, error %q; want exit 3, auth_required\nstderr: %s", r.name, r.code, e.Error.Code, r.stderr)
		}
	}
}

// TestInspectorCLI_Modern: the Inspector's CLI (2.12.0, on the SDK's v2
// client) with --protocol-era modern speaks MCP 2026-07-28 (server/discover,
// no initialize, no session): tools/list --strict gives exactly the
// bridge's tools, and a blocking ask_text answered through the CLI comes
// back with a question handle (ID.MAC) as its question_id. (Its ad-hoc runs
// default to the legacy era, which TestInspectorCLI covers.)
func TestInspectorCLI_Modern(t *testing.T) {
	t.Parallel()
	requireNode(t)
	app := startApp(t, "")
	auth := "Authorization: Bearer " + app.token
	code, out, stderr := inspector(t, app.url, "--protocol-era", "modern", "--header", auth, "--method", "tools/list", "--strict")
	var list struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Result.Tools) != len(mcpbridge.Tools()) {
		t.Fatalf("inspector --protocol-era modern tools/list: exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}
	q, sc := inspectorAskText(t, app, []string{"--protocol-era", "modern"}, "Codename at 2026-07-28?", `"Aurora"`)
	if q.Client.Name != "inspector-cli" || q.Client.SessionID != "" {
		t.Errorf("question from client %+v, want inspector-cli without a session", q.Client)
	}
	if id, _ := sc["question_id"].(string); !strings.HasPrefix(id, q.ID+".") || sc["status"] != "answered" || sc["answer"] != "Aurora" || sc["via"] != "cli" {
		t.Errorf("inspector tools/call structuredContent: %v", sc)
	}
}

// inspectorAskText has the Inspector call ask_text with message (plus args
// before the method, such as the protocol era) while the test waits for the
// question to be pending, answers it through the CLI with answerJSON, and
// returns the question and the call's structuredContent. It blocks until the
// Inspector exits; any failure of the call fails the test.
func inspectorAskText(t *testing.T, app *appProc, args []string, message, answerJSON string) (question.Question, map[string]any) {
	t.Helper()
	type callOut struct {
		code        int
		out, stderr string
	}
	called := make(chan callOut, 1)
	go func() {
		c, o, e := inspector(t, app.url, append(args, "--header", "Authorization: Bearer "+app.token, "--method", "tools/call",
			"--tool-name", mcpbridge.ToolAskText, "--tool-arg", "question="+message)...)
		called <- callOut{c, o, e}
	}()
	q := app.waitPending(t, message)
	app.answer(t, q.ID, answerJSON)
	co := <-called
	var res struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if co.code != 0 || json.Unmarshal([]byte(co.out), &res) != nil || res.Result.IsError {
		t.Fatalf("inspector tools/call: exit %d\nstdout: %s\nstderr: %s", co.code, co.out, co.stderr)
	}
	return q, res.Result.StructuredContent
}
