package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

const (
	loadClients   = 50
	loadQuestions = 20
	loadStdioEach = 5 // every 5th client goes through 'asktray stdio'
	// Margins for what the app may keep after the load: the broker keeps the
	// last 4096 ended questions for get_answer and re-asks keep their
	// fingerprints for an hour, so a little heap stays by design.
	goroutineMargin = 10
	heapMarginBytes = 8 << 20
)

// TestLoad_FiftyClients runs the app in this process (so its goroutines and
// heap can be measured) with 50 clients at once, mixed: the official Go SDK
// over Streamable HTTP and 'asktray stdio' child processes. Each asks 20
// questions in turn; the person answers whatever is pending through the
// control socket, in random order, with a value derived from the question's
// text. Every asker must get exactly its own answer, and afterwards the
// app's goroutines and heap must return within a small margin of the start.
// It does not run in parallel: the goroutine count is the whole process's.
// The data dir is on tmpfs where there is one (see ramDir).
func TestLoad_FiftyClients(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	started := time.Now()
	dir := ramDir(t)
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan app.Env, 1)
	done := make(chan error, 1)
	go func() {
		done <- app.Run(ctx, app.Options{DataDir: dir, Addr: "127.0.0.1:0", Headless: true, Version: "load",
			Ready: func(_ datadir.Instance, env app.Env) { ready <- env }})
	}()
	var env app.Env
	select {
	case env = <-ready:
	case err := <-done:
		t.Fatalf("app.Run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("app not ready")
	}
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("app.Run: %v", err)
		}
	}()
	g0, h0 := settle()
	t.Logf("start: %d goroutines, heap %.1f MB", g0, mb(h0))

	httpTr := &http.Transport{}
	sessions := make([]*sdk.ClientSession, loadClients)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var connectErrs []string
	for c := range loadClients {
		wg.Go(func() {
			var cs *sdk.ClientSession
			var err error
			if c%loadStdioEach == 0 {
				var stderr *testkit.SyncBuffer
				cs, stderr, err = stdioClient(t, dir)
				if err != nil {
					err = fmt.Errorf("%w\n%s", err, stderr.String())
				}
			} else {
				cl := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("load-%02d", c), Version: "1"}, nil)
				url, tok := env.Endpoint()
				tr := &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
					HTTPClient: &http.Client{Transport: bearerRT{httpTr, tok}}}
				cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				cs, err = cl.Connect(cctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
				cancel()
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				connectErrs = append(connectErrs, fmt.Sprintf("client %d: %v", c, err))
				return
			}
			sessions[c] = cs
		})
	}
	wg.Wait()
	if len(connectErrs) > 0 {
		t.Fatalf("connect: %s", strings.Join(connectErrs, "\n"))
	}

	// The askers: each asks its 20 questions one after the other.
	var wrong, failed []string
	asking := time.Now()
	for c, cs := range sessions {
		wg.Go(func() {
			for i := range loadQuestions {
				text := fmt.Sprintf("client %02d question %02d", c, i)
				r, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text",
					Arguments: map[string]any{"question": text, "timeout_seconds": 600}})
				var got struct {
					Answer string `json:"answer"`
				}
				if err == nil && !r.IsError {
					b, _ := json.Marshal(r.StructuredContent)
					_ = json.Unmarshal(b, &got)
				}
				mu.Lock()
				switch {
				case err != nil || r.IsError:
					failed = append(failed, fmt.Sprintf("%s: %v %+v", text, err, r))
				case got.Answer != answerFor(text):
					wrong = append(wrong, fmt.Sprintf("%s got %q", text, got.Answer))
				}
				mu.Unlock()
			}
		})
	}
	// The person: answers whatever is pending, in random order, until all are.
	ctl := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	answered := 0
	deadline := time.Now().Add(3 * time.Minute)
	for answered < loadClients*loadQuestions && time.Now().Before(deadline) {
		pend, err := ctl.Pending(context.Background())
		if err != nil {
			t.Fatalf("pending: %v", err)
		}
		rng.Shuffle(len(pend), func(i, j int) { pend[i], pend[j] = pend[j], pend[i] })
		// Four answers in flight at a time, started in the shuffled order.
		sem := make(chan struct{}, 4)
		var aw sync.WaitGroup
		for _, q := range pend {
			sem <- struct{}{}
			aw.Go(func() {
				defer func() { <-sem }()
				v, _ := json.Marshal(answerFor(q.Message))
				if _, err := ctl.Answer(context.Background(), q.ID, control.AnswerRequest{Action: question.Accept, Value: v}); err != nil {
					t.Errorf("answer %q: %v", q.Message, err)
				}
			})
			answered++
		}
		aw.Wait()
		if t.Failed() {
			t.FailNow()
		}
		if len(pend) == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	wg.Wait()
	elapsed := time.Since(asking)
	if len(failed) > 0 || len(wrong) > 0 {
		t.Fatalf("%d calls failed, %d got another answer:\n%s\n%s", len(failed), len(wrong),
			strings.Join(head(failed), "\n"), strings.Join(head(wrong), "\n"))
	}
	if answered != loadClients*loadQuestions {
		t.Fatalf("answered %d of %d", answered, loadClients*loadQuestions)
	}
	gPeak := runtime.NumGoroutine()
	for _, cs := range sessions {
		_ = cs.Close()
	}
	httpTr.CloseIdleConnections()
	g1, h1 := settleTo(g0 + goroutineMargin)
	t.Logf("%d clients (%d stdio) x %d questions answered in %v (%.0f/s); whole test %v",
		loadClients, loadClients/loadStdioEach, loadQuestions, elapsed.Round(time.Millisecond),
		float64(answered)/elapsed.Seconds(), time.Since(started).Round(time.Millisecond))
	t.Logf("end: %d goroutines (%+d; %d with the clients connected), heap %.1f MB (%+.1f MB)",
		g1, g1-g0, gPeak, mb(h1), mb(h1)-mb(h0))
	if g1 > g0+goroutineMargin {
		t.Errorf("goroutines did not come back: %d at start, %d after", g0, g1)
	}
	if h1 > h0+heapMarginBytes {
		t.Errorf("heap did not come back: %.1f MB at start, %.1f MB after", mb(h0), mb(h1))
	}
}

// ramDir returns a data dir on tmpfs when there is one: the history commits
// each question twice with synchronous=FULL, and on a shared CI disk those
// fsyncs, not the app, would set the pace (the crash test covers durability).
func ramDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("/dev/shm", "asktray-load-") //nolint:usetesting // t.TempDir cannot choose tmpfs
	if err != nil {
		return shortTempDir(t)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	return filepath.Join(base, "data")
}

func answerFor(text string) string { return "answer to " + text }

type bearerRT struct {
	base  http.RoundTripper
	token string
}

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// settle collects garbage and returns the goroutine count and live heap.
func settle() (int, uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc
}

// settleTo waits up to 15 s for the goroutine count to drop to want.
func settleTo(want int) (int, uint64) {
	end := time.Now().Add(15 * time.Second)
	for {
		g, h := settle()
		if g <= want || time.Now().After(end) {
			return g, h
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

func head(s []string) []string { return s[:min(len(s), 5)] }
