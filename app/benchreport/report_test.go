// Package benchreport measures the figures of `make bench` that need a
// running app: the tools/call round trip of a rule-decided question next to
// a bare mcp-go echo tool, the time from start to the MCP endpoint answering
// initialize, and the memory a pending question holds. Each benchmark prints
// its figures as "REPORT | ... |" Markdown table rows that .ci/bench.sh
// collects; none asserts anything about speed.
package benchreport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// report prints one row of the report table: figure, Asktray, comparison.
func report(figure, asktray, comparison string) {
	fmt.Printf("REPORT | %s | %s | %s |\n", figure, asktray, comparison)
}

// startApp runs the headless app in this process on a fresh data dir and
// stops it when b ends.
func startApp(b *testing.B) app.Env {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "data")
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan app.Env, 1)
	done := make(chan error, 1)
	go func() {
		done <- app.Run(ctx, app.Options{DataDir: dir, Addr: "127.0.0.1:0", Headless: true, Version: "bench",
			Ready: func(_ datadir.Instance, env app.Env) { ready <- env }})
	}()
	b.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			b.Errorf("app.Run: %v", err)
		}
	})
	select {
	case env := <-ready:
		return env
	case err := <-done:
		b.Fatalf("app.Run: %v", err)
	case <-time.After(30 * time.Second):
		b.Fatal("app not ready")
	}
	return app.Env{}
}

type bearer struct{ token string }

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if t.token != "" {
		r.Header.Set("Authorization", "Bearer "+t.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an official Go SDK client session on url.
func connect(b *testing.B, url, token string) *sdk.ClientSession {
	b.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{token}}}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatalf("connect %s: %v", url, err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bareEcho serves a bare mcp-go server with one echo tool on loopback, in
// this process, the way the anchor in docs was measured.
func bareEcho(b *testing.B) string {
	b.Helper()
	s := mcpserver.NewMCPServer("bare", "1")
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("text", "")), nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: mcpserver.NewStreamableHTTPServer(s)}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// BenchmarkReport_RoundTrip times tools/call over loopback HTTP with the
// official Go SDK client: ask_confirm decided at once by an "always allow"
// rule (Action "*": rules decide only confirms and approvals; guard, mcp-go,
// broker, policy, one SQLite commit with synchronous=FULL), alternating with a
// bare mcp-go echo tool in the same process and with one history commit alone,
// so that the goal (echo + one commit + 0.3 ms) is computed from the same run.
func BenchmarkReport_RoundTrip(b *testing.B) {
	const n = 500
	env := startApp(b)
	if _, err := env.Policy.Add(policy.Rule{Client: "*", Action: "*", Decision: policy.Allow, Scope: policy.ScopeAlways}); err != nil {
		b.Fatal(err)
	}
	mcpURL, tok := env.Endpoint()
	ours := connect(b, mcpURL, tok)
	bare := connect(b, bareEcho(b), "")
	ctx := context.Background()
	ask := func() time.Duration {
		start := time.Now()
		r, err := ours.CallTool(ctx, &sdk.CallToolParams{Name: "ask_confirm", Arguments: map[string]any{"question": "Run the unit tests?"}})
		el := time.Since(start)
		if err != nil || r.IsError {
			b.Fatalf("ask_confirm: %v %+v", err, r)
		}
		if m, _ := r.StructuredContent.(map[string]any); m["status"] != "auto_approved" {
			b.Fatalf("not decided by the rule: %v", r.StructuredContent)
		}
		return el
	}
	echo := func() time.Duration {
		start := time.Now()
		r, err := bare.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
		el := time.Since(start)
		if err != nil || r.IsError {
			b.Fatalf("echo: %v", err)
		}
		return el
	}
	commit := oneCommit(b)
	for range 20 {
		ask()
		echo()
		commit()
	}
	var a, e, c []time.Duration
	for range b.N {
		for range n {
			a = append(a, ask())
			e = append(e, echo())
			c = append(c, commit())
		}
	}
	budget := pct(e, 0.50) + pct(c, 0.50) + 300*time.Microsecond
	report(fmt.Sprintf("tools/call round trip, loopback HTTP, Go SDK client, %d calls each (asktray: ask_confirm decided by an always-allow rule, one SQLite commit, synchronous=FULL)", len(a)),
		"p50 "+ms(pct(a, 0.50))+", p99 "+ms(pct(a, 0.99)),
		"bare mcp-go echo tool, same process: p50 "+ms(pct(e, 0.50))+", p99 "+ms(pct(e, 0.99))+
			"; one history commit alone: p50 "+ms(pct(c, 0.50))+"; goal echo + commit + 0.3 ms = "+ms(budget))
	b.ReportMetric(float64(pct(a, 0.5))/1e6, "rule-p50-ms")
	b.ReportMetric(float64(pct(e, 0.5))/1e6, "echo-p50-ms")
	b.ReportMetric(float64(pct(c, 0.5))/1e6, "commit-p50-ms")
}

// oneCommit opens a history store like the app's (SQLite WAL,
// synchronous=FULL) in its own directory and returns a func that records one
// rule-decided question in it, one durable commit, and times it.
func oneCommit(b *testing.B) func() time.Duration {
	b.Helper()
	s, err := history.Open(filepath.Join(b.TempDir(), "commit.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	res := question.Result{Outcome: question.AutoApproved, DecidedBy: question.ByRule, Reason: question.ReasonRule, Via: question.ViaRule}
	return func() time.Duration {
		now := time.Now()
		q := question.Question{ID: question.NewID(), Kind: question.KindConfirm, Message: "Run the unit tests?",
			Client: question.Client{Name: "bench"}, Created: now, Deadline: now.Add(question.DefaultTimeout), State: question.StatePending}
		res.DecidedAt = now
		start := time.Now()
		if err := s.BeginEnded(context.Background(), q, res); err != nil {
			b.Fatalf("commit: %v", err)
		}
		return time.Since(start)
	}
}

// BenchmarkReport_PendingMemory asks 999 questions with wait false through
// the MCP endpoint and reports the heap and goroutines they hold while
// pending, per question, measured in the app's own process after GC.
func BenchmarkReport_PendingMemory(b *testing.B) {
	const n = 999
	env := startApp(b)
	// One session holds all n and the warm-up question: raise its bound
	// (max_pending_per_session, default 20) to its limit, 1000.
	s := env.Settings
	s.MaxPendingPerSession = n + 1
	if err := env.ApplySettings(s); err != nil {
		b.Fatal(err)
	}
	mcpURL, tok := env.Endpoint()
	cs := connect(b, mcpURL, tok)
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	// One ask first, so lazily built state is not counted.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{"question": "warm up", "wait": false}}); err != nil {
		b.Fatal(err)
	}
	h0, g0 := heap(), runtime.NumGoroutine()
	for i := range n {
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{
			"question": fmt.Sprintf("Pending question number %d: which database should the migration target?", i), "wait": false}})
		if err != nil || r.IsError {
			b.Fatalf("ask %d: %v", i, err)
		}
	}
	h1, g1 := heap(), runtime.NumGoroutine()
	if p := len(env.Broker.Pending()); p != n+1 {
		b.Fatalf("%d pending, want %d", p, n+1)
	}
	per := float64(h1-h0) / n
	report(fmt.Sprintf("memory per pending question, %d pending (ask_text, ~80-character question, in-process heap after GC)", n),
		fmt.Sprintf("%.1f KB heap, %.2f goroutines per question (%.1f MB for all)", per/1024, float64(g1-g0)/n, float64(h1-h0)/(1<<20)), "")
	b.ReportMetric(per, "heap-B/pending")
}

// BenchmarkReport_StartToInitialize starts the real headless binary five
// times on fresh data dirs and times from exec to the MCP endpoint
// answering initialize with 200.
func BenchmarkReport_StartToInitialize(b *testing.B) {
	bin := os.Getenv("ASKTRAY_BIN")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "asktray")
		if out, err := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", bin, "github.com/asktray/asktray/cmd/asktray").CombinedOutput(); err != nil {
			b.Fatalf("build: %v\n%s", err, out)
		}
	}
	var d []time.Duration
	for range 5 * b.N {
		d = append(d, startOnce(b, bin))
	}
	report(fmt.Sprintf("start (exec of bin/asktray --headless) to the MCP endpoint answering initialize, %d starts", len(d)),
		"median "+ms(pct(d, 0.5))+", min "+ms(slices.Min(d))+", max "+ms(slices.Max(d)), "")
}

func startOnce(b *testing.B, bin string) time.Duration {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "data")
	cmd := exec.Command(bin, "--headless", "--addr", "127.0.0.1:0", "--data-dir", dir)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	for time.Since(start) < 30*time.Second {
		in, err := datadir.ReadInstance(dir)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		tok, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile))
		if err != nil {
			b.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, in.URL, strings.NewReader(init))
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(start)
			}
			b.Fatalf("initialize: status %d", resp.StatusCode)
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			b.Fatalf("initialize: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatal("the endpoint did not answer initialize within 30 s")
	return 0
}
