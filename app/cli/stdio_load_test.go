package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

// TestStdio_FiftyPendingAsks: one stdio client keeps 50 blocking asks open;
// a ping and a cancellation still get through at once, and every ask gets
// exactly its own answer, given through the control socket.
func TestStdio_FiftyPendingAsks(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	// One session may keep 20 questions pending by default; this one needs 50.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := settings.Save(dir, settings.Settings{MaxPendingPerSession: 100}); err != nil {
		t.Fatal(err)
	}
	startApp(t, dir)
	cs, stderr, err := stdioClient(t, dir)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	const n = 50
	type answer struct {
		i   int
		res map[string]any
		err error
	}
	results := make(chan answer, n)
	ctx := context.Background()
	cancelCtx, cancelOne := context.WithCancel(ctx)
	for i := range n {
		go func() {
			cctx := ctx
			if i == 0 {
				cctx = cancelCtx
			}
			r, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{"question": fmt.Sprintf("Question %02d?", i)}})
			var m map[string]any
			if err == nil {
				b, _ := json.Marshal(r.StructuredContent)
				_ = json.Unmarshal(b, &m)
			}
			results <- answer{i, m, err}
		}()
	}
	ctl := control.NewClient(filepath.Join(dir, datadir.SocketFile))
	var pend []question.Question
	deadline := time.Now().Add(30 * time.Second)
	for len(pend) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d questions arrived\n%s", len(pend), n, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
		pend, _ = ctl.Pending(ctx)
	}

	// With 50 calls in flight, a ping answers promptly.
	pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
	err = cs.Ping(pctx, nil)
	pcancel()
	if err != nil {
		t.Fatalf("ping behind 50 pending asks: %v", err)
	}
	// Cancelling one call withdraws its question.
	var first string
	for _, q := range pend {
		if q.Message == "Question 00?" {
			first = q.ID
		}
	}
	cancelOne()
	if a := <-results; a.i != 0 || a.err == nil {
		t.Fatalf("the cancelled call: %+v", a)
	}
	for {
		it, err := ctl.Get(ctx, first)
		if err == nil && it.Result != nil {
			if it.Result.Outcome != question.Withdrawn {
				t.Fatalf("cancelled call's question ended %s", it.Result.Outcome)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cancel did not withdraw the question")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The person answers the rest, in reverse order, each with its own text.
	var wg sync.WaitGroup
	for _, q := range slices.Backward(pend) {
		if q.ID == first {
			continue
		}
		wg.Go(func() {
			v, _ := json.Marshal("answer to " + q.Message)
			if _, err := ctl.Answer(ctx, q.ID, control.AnswerRequest{Action: question.Accept, Value: v}); err != nil {
				t.Errorf("answer %s: %v", q.ID, err)
			}
		})
	}
	wg.Wait()
	for range n - 1 {
		a := <-results
		want := fmt.Sprintf("answer to Question %02d?", a.i)
		if a.err != nil || a.res["answer"] != want || a.res["via"] != "cli" {
			t.Errorf("call %d got %v %v, want %q", a.i, a.res, a.err, want)
		}
	}
}
