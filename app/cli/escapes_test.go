package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/internal/testkit"
)

// TestCLI_HistoryShowsNoEscapes is an attack (issue 33 item 6): an MCP
// client names itself with a window-title OSC, a clear screen and concealed
// text, and asks with C1 controls in its message; neither `history`,
// `history --json`, `history --export json` nor `pending --json` may pass a
// control through to the terminal that reads it, and the JSON still
// decodes to the agent's own text. On f02af39 the history table printed the
// client's name and title raw and the JSON passed U+009B and U+009D.
func TestCLI_HistoryShowsNoEscapes(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir)
	var info URLInfo
	if r := run(t, dir, "url", "--json"); json.Unmarshal([]byte(r.stdout), &info) != nil {
		t.Fatalf("url --json: %+v", r)
	}
	name := "evil\x1b]0;pwned\x07\x1b[2J"
	title := "Claude\x1b[8m hidden \x1b[0m\u009b2J\u009d0;t\u009c"
	message := "Fine?\u009b31mred\u009d0;title\u009c\u202e"
	c := sdk.NewClient(&sdk.Implementation{Name: name, Title: title, Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: info.URL, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: testkit.Bearer{Token: info.Token}}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	done := make(chan string, 1)
	callCtx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop) // before the session closes
	go func() {
		r, err := s.CallTool(callCtx, &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{"question": message}})
		b, _ := json.Marshal(r)
		done <- fmt.Sprint(string(b), err)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(run(t, dir, "pending", "--json").stdout, `"id"`) {
		select {
		case m := <-done:
			t.Fatalf("the ask ended at once: %v", m)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the question never became pending")
		}
		time.Sleep(50 * time.Millisecond)
	}

	for _, args := range [][]string{{"history"}, {"pending"}, {"history", "--json"}, {"history", "--export", "json"}, {"pending", "--json"}} {
		r := run(t, dir, args...)
		if r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u009d", "\u009c", "\u202e"} {
			if strings.Contains(r.stdout, bad) {
				t.Errorf("%v prints %q raw:\n%q", args, bad, r.stdout)
			}
		}
		if args[0] == "history" && len(args) == 1 && !strings.Contains(r.stdout, "⟨U+001B⟩") {
			t.Errorf("history does not mark the client's escapes:\n%s", r.stdout)
		}
		if len(args) > 1 && !strings.Contains(r.stdout, message[:5]) {
			t.Errorf("%v lacks the message:\n%s", args, r.stdout)
		}
		if len(args) > 1 && !strings.Contains(r.stdout, `\u009b31mred`) {
			t.Errorf("%v does not escape U+009B:\n%s", args, r.stdout)
		}
	}
	var items []struct {
		Question struct {
			Message string `json:"message"`
		} `json:"question"`
	}
	if err := json.Unmarshal([]byte(run(t, dir, "history", "--json").stdout), &items); err != nil || len(items) != 1 || items[0].Question.Message != message {
		t.Errorf("history --json decodes to %+v, %v; want the agent's own message", items, err)
	}
}
