package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder adds the bearer token to every MCP request and keeps a copy of
// everything the agent's side receives.
type recorder struct {
	token string
	mu    sync.Mutex
	seen  bytes.Buffer
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+r.token)
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(res.Body, r), res.Body}
	return res, nil
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen.Write(p)
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen.String()
}

// TestWebAnswerReachesTheAgent runs the app: an agent asks over MCP, the
// person answers on the question's page served by the same listener, and
// the agent's get_answer returns it with via web. Nothing the agent
// receives contains the page's link or its key.
func TestWebAnswerReachesTheAgent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan Env, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{DataDir: dir, Addr: "127.0.0.1:0", Headless: true, Version: "test",
			Ready: func(_ datadir.Instance, env Env) { ready <- env }})
	}()
	var env Env
	select {
	case env = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("not ready")
	}
	mcpURL, tok := env.Endpoint()
	rec := &recorder{token: tok}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e-agent", Version: "1.0"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: &http.Client{Transport: rec}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "ask_confirm", Arguments: map[string]any{"question": "Deploy v1.4.2 to staging?", "wait": false}})
	if err != nil || r.IsError {
		t.Fatalf("ask_confirm: %v %+v", err, r)
	}
	var pending struct {
		ID string `json:"question_id"`
	}
	b, _ := json.Marshal(r.StructuredContent)
	if json.Unmarshal(b, &pending) != nil || pending.ID == "" {
		t.Fatalf("no question id in %s", b)
	}

	link := env.WebURL(pending.ID)
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("k") == "" {
		t.Fatalf("link %q", link)
	}
	// The desktop opens the page through a forwarding file in the data dir,
	// the person's alone, that leads to the same link.
	fwd, err := env.WebOpenFile(pending.ID)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(fwd) != dir {
		t.Errorf("forwarding file %s is not in the data dir %s", fwd, dir)
	}
	if fi, err := os.Stat(fwd); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("forwarding file %s: %v %v, want mode 0600", fwd, fi, err)
	}
	if b, _ := os.ReadFile(fwd); !strings.Contains(string(b), u.Query().Get("k")) {
		t.Fatalf("forwarding file does not lead to %s:\n%s", link, b)
	}
	page := get(t, link)
	token := regexp.MustCompile(`name="t" value="([^"]+)"`).FindStringSubmatch(page)
	if token == nil {
		t.Fatalf("no form token:\n%s", page)
	}
	time.Sleep(600 * time.Millisecond) // the default arming delay, 500 ms, must pass
	res, err := http.PostForm(u.Scheme+"://"+u.Host+u.Path, url.Values{"k": {u.Query().Get("k")}, "t": {token[1]}, "action": {"yes"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d", res.StatusCode)
	}

	r, err = s.CallTool(ctx, &mcp.CallToolParams{Name: "get_answer", Arguments: map[string]any{"question_id": pending.ID}})
	if err != nil || r.IsError {
		t.Fatalf("get_answer: %v %+v", err, r)
	}
	b, _ = json.Marshal(r.StructuredContent)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	if got["status"] != "answered" || got["confirmed"] != true || got["via"] != "web" {
		t.Fatalf("get_answer: %s", b)
	}
	seen := rec.String()
	if !strings.Contains(seen, pending.ID) {
		t.Fatal("the recorder saw nothing of the session")
	}
	for _, secret := range []string{u.Query().Get("k"), "/q/", "?k="} {
		if strings.Contains(seen, secret) {
			t.Errorf("the agent received %q", secret)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, link string) string {
	t.Helper()
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", link, res.StatusCode)
	}
	return string(b)
}
