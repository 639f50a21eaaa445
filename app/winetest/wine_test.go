package winetest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
	"github.com/asktray/asktray/mcpbridge"
)

func jsonDecode(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// waitPending waits until the app has n pending questions and returns them.
func (w *wine) waitPending(t *testing.T, d dataDir, n int) []question.Question {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := w.cli(t, d, "pending", "--json")
		var qs []question.Question
		if r.code == 0 && jsonDecode(r.stdout, &qs) == nil && len(qs) == n {
			return qs
		}
		if time.Now().After(deadline) {
			t.Fatalf("want %d pending questions: %+v", n, r)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// history returns the app's history through `asktray.exe history --json`.
func (w *wine) history(t *testing.T, d dataDir) []control.Item {
	t.Helper()
	r := w.cli(t, d, "history", "--json")
	var items []control.Item
	if r.code != 0 || jsonDecode(r.stdout, &items) != nil {
		t.Fatalf("history --json: %+v", r)
	}
	return items
}

// TestWineVersion: the exe starts under Wine and prints its version to a pipe.
func TestWineVersion(t *testing.T) {
	w := newWine(t)
	r := w.run(t, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "asktray ") {
		t.Fatalf("asktray.exe version: %+v", r)
	}
}

// TestWineHeadless runs the headless app under Wine: its control channel is
// a named pipe; MCP initialize and tools/list answer over loopback TCP, a
// request without the token gets 401; an ask_text is answered with
// `asktray.exe answer` over the pipe and the agent gets the text; the
// history row is written; `asktray.exe quit` shuts it down cleanly and its
// instance file goes.
func TestWineHeadless(t *testing.T) {
	w := newWine(t)
	d := w.newDataDir(t)
	a := w.start(t, d, "", nil, "--headless")

	in, err := a.instance()
	if err != nil || in.URL != a.url || !strings.HasPrefix(in.Socket, `\\.\pipe\asktray-`) || in.GUI {
		t.Fatalf("instance file %+v (%v): want the URL, a named pipe and no GUI", in, err)
	}

	resp, err := http.Post(a.url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a request without the token got %d, want 401", resp.StatusCode)
	}

	s := a.client(t, "wine-agent")
	if init := s.InitializeResult(); init == nil || init.ServerInfo == nil || init.ServerInfo.Name != "asktray" {
		t.Fatalf("initialize: %+v", init)
	}
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	want := slices.Sorted(slices.Values(mcpbridge.ToolNames))
	if slices.Sort(names); len(names) != 11 || !slices.Equal(names, want) {
		t.Fatalf("tools/list gave %v, want the 11 tools %v", names, want)
	}

	res := testkit.CallToolAsync(s, "ask_text", map[string]any{"question": "Name the release branch"})
	qs := w.waitPending(t, d, 1)
	if qs[0].Message != "Name the release branch" || qs[0].Client.Name != "wine-agent" {
		t.Fatalf("pending %+v", qs[0])
	}
	if r := w.cli(t, d, "answer", qs[0].ID, "--accept", `"release/wine"`); r.code != 0 || !strings.Contains(r.stdout, "answered") {
		t.Fatalf("answer over the pipe: %+v", r)
	}
	got := testkit.WaitToolResult(t, res, 60*time.Second)
	if got["status"] != "answered" || got["answer"] != "release/wine" || got["via"] != "cli" {
		t.Fatalf("the agent got %v, want the text answered via cli", got)
	}
	items := w.history(t, d)
	if len(items) != 1 || items[0].Question.ID != qs[0].ID || items[0].Result == nil ||
		items[0].Result.Outcome != question.Answered || items[0].Result.Via != question.ViaCLI || string(items[0].Result.Value) != `"release/wine"` {
		t.Fatalf("history %+v, want the one answered row", items)
	}

	quit(t, w, a)
}

// quit shuts a down with `asktray.exe quit` and checks that it exits 0 and
// removed its instance file.
func quit(t *testing.T, w *wine, a *app) {
	t.Helper()
	if r := w.cli(t, a.dir, "quit"); r.code != 0 || !strings.Contains(r.stdout, "Asktray quit.") {
		t.Fatalf("quit: %+v", r)
	}
	if code := a.waitExit(t, 30*time.Second); code != 0 {
		t.Fatalf("the app exited %d after quit, want 0", code)
	}
	if _, err := os.Stat(filepath.Join(a.dir.host, datadir.InstanceFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the instance file is still there after a clean shutdown: %v", err)
	}
	if !strings.Contains(a.log(), "msg=stopped") {
		t.Errorf("the log does not say the app stopped:\n%s", a.log())
	}
}

// TestWineRecoversFromKill ends the app the hard way, `wineserver -k` (no
// shutdown code runs: the instance file and the lock file stay), and starts
// it again on the same data dir: it takes the lock, serves, rewrites the
// instance file, and the question that was pending when it died is in the
// history as interrupted.
func TestWineRecoversFromKill(t *testing.T) {
	w := newWine(t)
	d := w.newDataDir(t)
	a := w.start(t, d, "", nil, "--headless")
	s := a.client(t, "wine-agent")
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text",
		Arguments: map[string]any{"question": "Which tag?", "wait": false}}); err != nil {
		t.Fatal(err)
	}
	qs := w.waitPending(t, d, 1)
	before, err := a.instance()
	if err != nil {
		t.Fatal(err)
	}
	if r := w.runCmd(t, w.command("", nil, "wineserver", "-k")); r.code != 0 {
		t.Fatalf("wineserver -k: %+v", r)
	}
	a.waitExit(t, 30*time.Second)
	if _, err := a.instance(); err != nil {
		t.Fatalf("the instance file did not survive the kill (so this test proves nothing): %v", err)
	}

	b := w.start(t, d, "", nil, "--headless")
	after, err := b.instance()
	// Wine numbers processes afresh after wineserver -k, so the PID may well
	// be the same: the start time and the port say it is a new instance.
	if err != nil || after.Started == before.Started || after.URL != b.url || after.URL == before.URL {
		t.Fatalf("instance after the restart %+v (%v), before %+v: want the new run's", after, err, before)
	}
	var found bool
	for _, it := range w.history(t, d) {
		if it.Question.ID == qs[0].ID {
			found = it.Result != nil && it.Result.Outcome == question.Interrupted
			if !found {
				t.Errorf("the question pending at the kill is %+v, want interrupted", it.Result)
			}
		}
	}
	if !found {
		t.Error("the question pending at the kill is not in the history")
	}
	quit(t, w, b)
}
