package nodeclients

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
	"github.com/asktray/asktray/mcpbridge"
)

// sdkEvent is one line sdk-client.mjs prints.
type sdkEvent struct {
	Event    string   `json:"event"`
	Progress float64  `json:"progress"`
	Message  string   `json:"message"`
	MS       int64    `json:"ms"`
	Code     *int     `json:"code"`
	Names    []string `json:"names"`
	Result   *struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	} `json:"result"`
}

const sdkClientName = "asktray-ts-sdk-test"

// runSDK starts sdk-client.mjs with cfg.
func runSDK(t *testing.T, cfg map[string]any, extraEnv ...string) *nodeProc {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return startNode(t, 90*time.Second, nodeEnv(t, extraEnv...), "sdk-client.mjs", string(b))
}

// next returns the next event, failing if the script ends first.
func (p *nodeProc) next(t *testing.T) sdkEvent {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatalf("sdk-client.mjs ended early (exit %d); stderr:\n%s", p.wait(), p.stderr.String())
		}
		var ev sdkEvent
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("sdk-client.mjs printed %q: %v", l, err)
		}
		return ev
	case <-time.After(60 * time.Second):
		t.Fatalf("no line from sdk-client.mjs in 60 s; stderr:\n%s", p.stderr.String())
	}
	return sdkEvent{}
}

// connected reads the connected and tools events and checks the tool list
// is exactly the bridge's.
func (p *nodeProc) connected(t *testing.T) {
	t.Helper()
	if ev := p.next(t); ev.Event != "connected" {
		t.Fatalf("first event %+v, want connected", ev)
	}
	ev := p.next(t)
	var want []string
	for _, tl := range mcpbridge.Tools() {
		want = append(want, tl.Name)
	}
	slices.Sort(want)
	slices.Sort(ev.Names)
	if ev.Event != "tools" || !slices.Equal(ev.Names, want) {
		t.Fatalf("tools/list gave %+v, want %v", ev, want)
	}
}

// wantStructured checks every field of a result's structuredContent in want.
func wantStructured(t *testing.T, ev sdkEvent, want map[string]any) {
	t.Helper()
	if ev.Event != "result" || ev.Result == nil || ev.Result.IsError {
		t.Fatalf("want a successful tool result, got %+v", ev)
	}
	got := ev.Result.StructuredContent
	for k, v := range want {
		gb, _ := json.Marshal(got[k])
		wb, _ := json.Marshal(v)
		if string(gb) != string(wb) {
			t.Errorf("structuredContent.%s = %s, want %s (all: %v)", k, gb, wb, got)
		}
	}
}

// TestTypeScriptSDK_HTTPProgressKeepsCallAlive: the TS SDK client over
// Streamable HTTP with a 3 s request timeout waits more than twice that for
// the answer, because the bridge's progress every second resets the timeout
// (onprogress + resetTimeoutOnProgress). A control call without
// resetTimeoutOnProgress times out at 3 s (-32001) despite the same
// progress; the notifications/cancelled the SDK then sends says "Request
// timed out", so the question stays open, and the same call made again on
// that session collects the person's answer.
func TestTypeScriptSDK_HTTPProgressKeepsCallAlive(t *testing.T) {
	t.Parallel()
	requireNode(t)
	app := startApp(t, `{"progress_interval_seconds": 1}`)
	const timeoutMS = 3000
	call := func(question string, reset bool) *nodeProc {
		cfg := map[string]any{
			"transport": "http", "url": app.url, "token": app.token, "clientName": sdkClientName,
			"tool": mcpbridge.ToolAskConfirm, "arguments": map[string]any{"question": question},
			"timeoutMs": timeoutMS, "progress": true, "resetTimeoutOnProgress": reset,
		}
		if !reset {
			// After the timeout, ask again on the same session a little
			// later, when the server has seen the cancellation.
			cfg["reask"] = map[string]any{"afterMs": 2500, "timeoutMs": 20000}
		}
		return runSDK(t, cfg)
	}
	kept, noReset := call("Ship release 1.2 to production?", true), call("Control: no reset on progress?", false)
	kept.connected(t)
	noReset.connected(t)

	// The control call: progress arrives, but the timeout is not reset.
	var ev sdkEvent
	progress := 0
	for ev = noReset.next(t); ev.Event == "progress"; ev = noReset.next(t) {
		progress++
	}
	if ev.Event != "error" || ev.Code == nil || *ev.Code != -32001 || ev.MS < timeoutMS {
		t.Fatalf("control call without resetTimeoutOnProgress: got %+v, want a -32001 request timeout after %d ms", ev, timeoutMS)
	}
	if progress == 0 {
		t.Errorf("control call saw no progress before its timeout")
	}
	// The SDK sends notifications/cancelled on timeout, reason "Request
	// timed out": the client stopped waiting, the question stays open and
	// the person's answer reaches the re-asked call.
	first := app.waitPending(t, "Control: no reset on progress?")
	time.Sleep(1500 * time.Millisecond) // past the server's wait for the cancellation
	control := app.waitPending(t, "Control: no reset on progress?")
	if control.ID != first.ID {
		t.Fatalf("the timed-out call's question %s was replaced by %s", first.ID, control.ID)
	}
	app.answer(t, control.ID, `"no"`)
	for ev = noReset.next(t); ev.Event == "progress"; ev = noReset.next(t) {
	}
	wantStructured(t, ev, map[string]any{"question_id": control.ID, "status": "answered", "answer": "no", "confirmed": false, "via": "cli"})
	// The very question of the timed-out call, not a new one asked by the re-ask.
	if ms, _ := ev.Result.StructuredContent["elapsed_ms"].(float64); ms < timeoutMS {
		t.Errorf("re-ask collected a question %v ms old; the timed-out call's question was older than %d ms", ms, timeoutMS)
	}
	if code := noReset.wait(); code != 0 {
		t.Errorf("control sdk-client.mjs exit code %d, want 0 (the re-ask answered)", code)
	}

	// The kept call: answer only once it has outlived its timeout twice over.
	q := app.waitPending(t, "Ship release 1.2 to production?")
	if q.Client.Name != sdkClientName {
		t.Errorf("question from client %q, want %q", q.Client.Name, sdkClientName)
	}
	for ev = kept.next(t); ev.Event == "progress" && ev.MS < 2*timeoutMS; ev = kept.next(t) {
	}
	if ev.Event != "progress" {
		t.Fatalf("kept call: got %+v before outliving its timeout, want progress", ev)
	}
	app.answer(t, q.ID, `"yes"`)
	for ev = kept.next(t); ev.Event == "progress"; ev = kept.next(t) {
	}
	if ev.MS < 2*timeoutMS {
		t.Errorf("kept call returned after %d ms; it should have outlived its %d ms timeout", ev.MS, timeoutMS)
	}
	wantStructured(t, ev, map[string]any{
		"question_id": q.ID, "status": "answered", "answer": "yes", "confirmed": true,
		"answered_by": "human", "via": "cli", "auto_reject_suspected": false,
	})
	if code := kept.wait(); code != 0 {
		t.Errorf("sdk-client.mjs exit code %d; stderr:\n%s", code, kept.stderr.String())
	}
}

// TestTypeScriptSDK_Stdio: the TS SDK's StdioClientTransport runs
// `asktray stdio` (this test binary) as an agent would; the question reaches
// the running app under the client's name, is answered through the CLI, and
// the structured result comes back through the stdio bridge.
func TestTypeScriptSDK_Stdio(t *testing.T) {
	t.Parallel()
	requireNode(t)
	app := startApp(t, "")
	p := runSDK(t, map[string]any{
		"transport": "stdio", "command": os.Args[0], "args": []string{"stdio", "--data-dir", app.dir},
		"clientName": sdkClientName, "tool": mcpbridge.ToolAskChoice,
		"arguments": map[string]any{"question": "Which suite should run first?",
			"options": []map[string]string{{"label": "unit"}, {"label": "e2e", "description": "needs Xvfb"}}},
	}, testkit.ChildEnv)
	p.connected(t)
	q := app.waitPending(t, "Which suite should run first?")
	if q.Client.Name != sdkClientName {
		t.Errorf("question from client %q, want %q", q.Client.Name, sdkClientName)
	}
	app.answer(t, q.ID, `["e2e"]`)
	wantStructured(t, p.next(t), map[string]any{
		"question_id": q.ID, "status": "answered", "selected": []string{"e2e"},
		"answered_by": "human", "via": "cli",
	})
	if code := p.wait(); code != 0 {
		t.Errorf("sdk-client.mjs exit code %d; stderr:\n%s", code, p.stderr.String())
	}
}

// sdk2Event is one line sdk2-client.mjs prints.
type sdk2Event struct {
	sdkEvent
	Era             string         `json:"era"`
	ProtocolVersion string         `json:"protocolVersion"`
	Schema          map[string]any `json:"schema"`
}

// nextSDK2 returns p's next line as an sdk2Event.
func (p *nodeProc) nextSDK2(t *testing.T) sdk2Event {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatalf("sdk2-client.mjs ended early (exit %d); stderr:\n%s", p.wait(), p.stderr.String())
		}
		var ev sdk2Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("sdk2-client.mjs printed %q: %v", l, err)
		}
		return ev
	case <-time.After(60 * time.Second):
		t.Fatalf("no line from sdk2-client.mjs in 60 s; stderr:\n%s", p.stderr.String())
	}
	return sdk2Event{}
}

// TestTypeScriptSDK2 runs the TypeScript SDK's v2 client package
// (@modelcontextprotocol/client, the SDK at its newest) at both revisions
// it speaks, 2025-11-25 (initialize) and 2026-07-28 (server/discover, no
// session): a question answered through the CLI comes back whole; and in
// ask mode client the client's own form answers it, as elicitation/create
// at 2025-11-25 and as an input_required result the client fulfils and
// retries at 2026-07-28, recorded via elicitation in both.
func TestTypeScriptSDK2(t *testing.T) {
	t.Parallel()
	requireNode(t)
	for _, era := range []struct{ name, version string }{{"legacy", "2025-11-25"}, {"modern", "2026-07-28"}} {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			desk := startApp(t, "")
			connect := func(p *nodeProc) {
				t.Helper()
				if ev := p.nextSDK2(t); ev.Event != "connected" || ev.Era != era.name || ev.ProtocolVersion != era.version {
					t.Fatalf("connected as %+v, want era %s at %s", ev, era.name, era.version)
				}
				if ev := p.nextSDK2(t); ev.Event != "tools" || len(ev.Names) != len(mcpbridge.Tools()) {
					t.Fatalf("tools: %+v", ev)
				}
			}
			question := "Release name at " + era.version + "?"
			p := startNode(t, 90*time.Second, nodeEnv(t), "sdk2-client.mjs", mustJSON(t, map[string]any{
				"url": desk.url, "token": desk.token, "era": era.name, "tool": mcpbridge.ToolAskText,
				"arguments": map[string]any{"question": question}}))
			connect(p)
			q := desk.waitPending(t, question)
			desk.answer(t, q.ID, `"v2"`)
			ev := p.nextSDK2(t)
			wantStructured(t, ev.sdkEvent, map[string]any{"status": "answered", "answer": "v2", "via": "cli", "answered_by": "human"})
			if id, _ := ev.Result.StructuredContent["question_id"].(string); !strings.HasPrefix(id, q.ID) {
				t.Errorf("question_id %q does not name %s", id, q.ID)
			}

			// The client's own form, in ask mode client.
			formApp := startApp(t, `{"ask_mode": "client"}`)
			f := startNode(t, 90*time.Second, nodeEnv(t), "sdk2-client.mjs", mustJSON(t, map[string]any{
				"url": formApp.url, "token": formApp.token, "era": era.name, "tool": mcpbridge.ToolAskConfirm,
				"arguments": map[string]any{"question": "Tag the release?", "yes_label": "Tag"},
				"form":      map[string]any{"action": "accept", "content": map[string]any{"confirm": true}, "delayMs": 200}}))
			connect(f)
			if ev := f.nextSDK2(t); ev.Event != "form" || ev.Schema["properties"] == nil || !strings.Contains(ev.Message, "Tag the release?") {
				t.Fatalf("want the form, got %+v", ev)
			}
			wantStructured(t, f.nextSDK2(t).sdkEvent, map[string]any{"status": "answered", "confirmed": true, "via": "elicitation", "answered_by": "human"})
			if code := f.wait(); code != 0 {
				t.Errorf("sdk2-client.mjs exit code %d; stderr:\n%s", code, f.stderr.String())
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// historyRow is what a row of 'asktray history --json' holds that the
// tests read.
type historyRow struct {
	Question struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	} `json:"question"`
}

// TestTypeScriptSDK2_AutoRejectedInHistory: the question a client of either
// revision gets rejected automatically (away, mode reject) is the history's
// auto_rejected row, found under the id its question_id names: the id
// itself at 2025-11-25, the id part of its handle (ID.MAC) at 2026-07-28.
func TestTypeScriptSDK2_AutoRejectedInHistory(t *testing.T) {
	t.Parallel()
	requireNode(t)
	app := startApp(t, `{"away_mode": "reject"}`)
	if r := asktray(t, app.dir, "away", "on"); r.code != 0 {
		t.Fatalf("asktray away on: %+v", r)
	}
	for _, era := range []string{"legacy", "modern"} {
		action := "Deploy the shop (" + era + ")"
		p := startNode(t, 90*time.Second, nodeEnv(t), "sdk2-client.mjs", mustJSON(t, map[string]any{
			"url": app.url, "token": app.token, "era": era, "tool": mcpbridge.ToolApproval,
			"arguments": map[string]any{"action": action, "details": "`make deploy`", "risk": "medium"}}))
		for ev := p.nextSDK2(t); ev.Event != "tools"; ev = p.nextSDK2(t) {
		}
		ev := p.nextSDK2(t)
		wantStructured(t, ev.sdkEvent, map[string]any{"status": "auto_rejected", "reason": "away", "decision": "deny"})
		ref, _ := ev.Result.StructuredContent["question_id"].(string)
		id, mac, handle := strings.Cut(ref, ".")
		if handle != (era == "modern") || (handle && mac == "") {
			t.Errorf("%s: question_id %q, want a handle only at 2026-07-28", era, ref)
		}
		r := asktray(t, app.dir, "history", "--outcome", "auto_rejected", "--json")
		var items []historyRow
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &items) != nil {
			t.Fatalf("asktray history --json: %+v", r)
		}
		if !slices.ContainsFunc(items, func(it historyRow) bool { return it.Question.ID == id && it.Question.Message == action }) {
			t.Errorf("%s: no auto_rejected history row with id %s for %q in %s", era, id, action, r.stdout)
		}
		if code := p.wait(); code != 0 {
			t.Errorf("sdk2-client.mjs exit code %d; stderr:\n%s", code, p.stderr.String())
		}
	}
}

// TestTypeScriptSDK2_StdioForm: the v2 client runs `asktray stdio` (this
// test binary) as its server, at 2025-11-25 and pinned to 2026-07-28; in ask
// mode client the shim carries the form to it (elicitation/create, or the
// input_required result) and its answer (the response, or the retry with
// inputResponses and requestState) back to the app, and the form's answer is
// recorded via elicitation.
func TestTypeScriptSDK2_StdioForm(t *testing.T) {
	t.Parallel()
	requireNode(t)
	for _, era := range []struct{ name, version string }{{"legacy", "2025-11-25"}, {"modern", "2026-07-28"}} {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			app := startApp(t, `{"ask_mode": "client"}`)
			p := startNode(t, 90*time.Second, nodeEnv(t, testkit.ChildEnv), "sdk2-client.mjs", mustJSON(t, map[string]any{
				"command": os.Args[0], "args": []string{"stdio", "--data-dir", app.dir}, "era": era.name,
				"tool": mcpbridge.ToolAskText, "arguments": map[string]any{"question": "Branch name over stdio?"},
				"form": map[string]any{"action": "accept", "content": map[string]any{"answer": "main"}, "delayMs": 200}}))
			if ev := p.nextSDK2(t); ev.Event != "connected" || ev.Era != era.name || ev.ProtocolVersion != era.version {
				t.Fatalf("connected as %+v, want %s", ev, era.version)
			}
			for ev := p.nextSDK2(t); ev.Event != "form"; ev = p.nextSDK2(t) {
				if ev.Event != "tools" {
					t.Fatalf("want the form, got %+v", ev)
				}
			}
			wantStructured(t, p.nextSDK2(t).sdkEvent, map[string]any{"status": "answered", "answer": "main", "via": "elicitation"})
			if code := p.wait(); code != 0 {
				t.Errorf("sdk2-client.mjs exit code %d; stderr:\n%s", code, p.stderr.String())
			}
		})
	}
}
