package mcpbridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// modernRetry is a 2026-07-28 tools/call retry as it goes on the wire: the
// call again, with state as requestState and answer as the form's response.
func modernRetry(tool, args, key, state, answer string) string {
	c := modernCall(2, tool, args, key)
	return strings.Replace(c, `,"_meta":`, `,"requestState":`+mustQuote(state)+`,"inputResponses":{"`+formInputID+`":`+answer+`},"_meta":`, 1)
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// resultOf reads the JSON-RPC result out of a Streamable HTTP response
// (plain JSON or one SSE event).
func resultOf(t *testing.T, body string) map[string]any {
	t.Helper()
	if i := strings.LastIndex(body, "data: "); i >= 0 {
		body = body[i+len("data: "):]
	}
	var m struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(body)), &m); err != nil || m.Result == nil {
		t.Fatalf("no result in %q: %v", body, err)
	}
	return m.Result
}

// TestModernFormState: at 2026-07-28 the form goes back as an
// input_required result, and only Asktray's own requestState, for a
// question that went to the client's form, takes the form's answer: a
// forged state gets an isError naming requestState, and a retry that
// answers a question asked on the desktop (an agent answering for the
// person) records nothing; the question stays open for the person.
func TestModernFormState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const key = "k-0123456789abcdef-formstate"
	args := `{"question":"Branch name?"}`

	// Client mode, a client that declares forms: input_required, at once.
	e := newEnv(t, Config{AskMode: question.AskClient, DefaultWindow: 2 * time.Second})
	body := strings.Replace(modernCall(1, ToolAskText, args, key), `"io.modelcontextprotocol/clientCapabilities":{}`,
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}`, 1)
	out, err := postModern(ctx, e.url, ToolAskText, body)
	if err != nil {
		t.Fatal(err)
	}
	r := resultOf(t, out)
	state, _ := r["requestState"].(string)
	form, _ := r["inputRequests"].(map[string]any)[formInputID].(map[string]any)
	if r["resultType"] != "input_required" || !strings.HasPrefix(state, formStatePrefix) || form["method"] != "elicitation/create" {
		t.Fatalf("want an input_required result with the form, got %s", out)
	}
	if q := e.waitPending(t, 1)[0]; q.DeliverTo != question.DeliverClient {
		t.Fatalf("the question is delivered to %q while out on the form", q.DeliverTo)
	}

	// A forged state.
	out, err = postModern(ctx, e.url, ToolAskText, modernRetry(ToolAskText, args, key, formStatePrefix+"x.AAAAAAAAAAAAAAAAAAAAAA", `{"action":"accept","content":{"answer":"main"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r := resultOf(t, out); r["isError"] != true || !strings.Contains(out, "requestState") {
		t.Fatalf("a forged requestState: %s", out)
	}

	// The real state answers.
	out, err = postModern(ctx, e.url, ToolAskText, modernRetry(ToolAskText, args, key, state, `{"action":"accept","content":{"answer":"main"}}`))
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := resultOf(t, out)["structuredContent"].(map[string]any)
	if sc["status"] != "answered" || sc["answer"] != "main" || sc["via"] != "elicitation" {
		t.Fatalf("the form's answer: %s", out)
	}

	// Desktop mode: the asker's own handle as requestState answers nothing.
	d := newEnv(t, Config{DefaultWindow: time.Second})
	out, err = postModern(ctx, d.url, ToolAskText, modernCall(1, ToolAskText, `{"question":"Delete the cache?","wait":false}`, key))
	if err != nil {
		t.Fatal(err)
	}
	sc, _ = resultOf(t, out)["structuredContent"].(map[string]any)
	handle, _ := sc["question_id"].(string)
	if sc["status"] != "pending" || !strings.Contains(handle, ".") {
		t.Fatalf("ask: %s", out)
	}
	out, err = postModern(ctx, d.url, ToolAskText, modernRetry(ToolAskText, `{"question":"Delete the cache?","wait":false}`, key,
		formStatePrefix+handle, `{"action":"accept","content":{"answer":"yes, all of it"}}`))
	if err != nil {
		t.Fatal(err)
	}
	sc, _ = resultOf(t, out)["structuredContent"].(map[string]any)
	if _, res, err := d.broker.Get(idOf(handle)); err != nil || res != nil || sc["status"] != "pending" {
		t.Fatalf("an agent's own answer was taken for the person's: result %s, outcome %+v %v", out, res, err)
	}
}

// TestModernFormWindowEnds: at 2026-07-28, when no retry comes within the
// call's window, the question goes to the desktop, the page and the CLI;
// the person answers there, and the client's late retry gets that answer.
func TestModernFormWindowEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{AskMode: question.AskClient, DefaultWindow: time.Second}).at(modern)
	f := newFakeForm(nil)
	s := e.connectForm(t, "slow-reader", f)
	done := make(chan map[string]any, 1)
	go func() {
		r, _, _ := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Ship?"})
		done <- r
	}()
	<-f.seen
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == ""; time.Sleep(20 * time.Millisecond) {
		if qs := e.broker.Pending(); len(qs) == 1 && qs[0].DeliverTo == "" {
			id = qs[0].ID
		} else if time.Now().After(deadline) {
			t.Fatalf("the question did not go back to the desktop within 30 s: %+v", qs)
		}
	}
	if err := e.broker.Answer(id, question.Response{Action: question.Accept, Value: json.RawMessage(`"yes"`), Via: question.ViaCLI}); err != nil {
		t.Fatal(err)
	}
	close(f.done) // the form is dismissed: the client retries with cancel
	r := <-done
	if r["status"] != "answered" || r["confirmed"] != true || r["via"] != "cli" {
		t.Fatalf("the late retry: %v", r)
	}
}
