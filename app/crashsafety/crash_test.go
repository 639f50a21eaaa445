// Package crashsafety_test kills a process that records decisions through
// the real broker and SQLite history at random points, and checks that
// nothing acknowledged is lost and the database stays intact.
package crashsafety_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// TestMain runs the child when the parent re-executes the test binary.
func TestMain(m *testing.M) {
	if os.Getenv("ASKTRAY_CRASH_CHILD") == "1" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

const (
	kills       = 15               // kills at least this many times
	maxKills    = 40               // and at most this many, until both checks had something to check
	budget      = 60 * time.Second // a bound on the whole test on a loaded machine; about 15 s otherwise
	maxLifetime = 1000 * time.Millisecond
)

// plans are what the child does with a question once asked; "pending"
// leaves it open for the kill to find.
var plans = []question.Outcome{question.Answered, question.Declined, question.Cancelled, "pending"}

// child asks questions through a broker journaling to the database in
// ASKTRAY_CRASH_DB, from two goroutines, and decides them. It prints
// "asked ID PLAN" once Ask returned (the question is durable) and
// "done ID OUTCOME VALUE" once Answer and Wait returned. It runs until killed.
func child() int {
	store, err := history.Open(os.Getenv("ASKTRAY_CRASH_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	seed, _ := strconv.ParseUint(os.Getenv("ASKTRAY_CRASH_SEED"), 10, 64)
	b := question.NewBroker(question.Config{Journal: store})
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stdout, format+"\n", args...)
	}
	say("ready")
	ctx := context.Background()
	for g := range 2 {
		go func() {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			for n := 0; ; n++ {
				q, err := b.Ask(ctx, question.Question{Kind: question.KindText, FreeText: true,
					Client: question.Client{Name: "crash"}, Message: fmt.Sprintf("question %d/%d", g, n)})
				if err != nil {
					fmt.Fprintln(os.Stderr, "ask:", err)
					os.Exit(3)
				}
				plan := plans[rng.IntN(len(plans))]
				say("asked %s %s", q.ID, plan)
				var r question.Response
				value := fmt.Sprintf(`"answer-%d-%d"`, g, n)
				switch plan {
				case "pending":
					continue
				case question.Answered:
					r = question.Response{Action: question.Accept, Value: json.RawMessage(value), Via: question.ViaCLI}
				case question.Declined:
					r, value = question.Response{Action: question.Decline, Via: question.ViaCLI}, "-"
				case question.Cancelled:
					r, value = question.Response{Action: question.Cancel, Via: question.ViaCLI}, "-"
				}
				if err := b.Answer(q.ID, r); err != nil {
					fmt.Fprintln(os.Stderr, "answer:", err)
					os.Exit(3)
				}
				res, err := b.Wait(ctx, q.ID)
				if err != nil || res.Outcome != plan {
					fmt.Fprintln(os.Stderr, "wait:", res.Outcome, err)
					os.Exit(3)
				}
				say("done %s %s %s", q.ID, res.Outcome, value)
			}
		}()
	}
	select {}
}

// TestKillDuringDecisions SIGKILLs the child at random points. After each
// kill the database must pass PRAGMA integrity_check, every acknowledged
// decision must be there with its outcome and value, and the questions left
// pending must come back as interrupted after InterruptPending, as app.Run
// does on start.
func TestKillDuringDecisions(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("ASKTRAY_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (set ASKTRAY_CRASH_SEED to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	db := filepath.Join(t.TempDir(), "history.db")
	done := map[string]string{} // id -> "OUTCOME VALUE", acknowledged
	asked := map[string]question.Outcome{}
	start := time.Now()
	var acked, interrupted, pendingPlans, k int
	for ; k < maxKills && time.Since(start) < budget && (k < kills || acked == 0 || interrupted == 0); k++ {
		out := runAndKill(t, db, rng.Uint64(), time.Duration(rng.IntN(int(maxLifetime/time.Millisecond)))*time.Millisecond)
		before := len(done)
		for line := range strings.Lines(out) {
			f := strings.Fields(line)
			switch {
			case len(f) == 3 && f[0] == "asked":
				asked[f[1]] = question.Outcome(f[2])
			case len(f) == 4 && f[0] == "done":
				done[f[1]] = f[2] + " " + f[3]
			}
		}
		acked += len(done) - before
		integrity(t, db)
		store, err := history.Open(db)
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", k, err)
		}
		ctx := context.Background()
		ids, err := store.InterruptPending(ctx, time.Now())
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		interrupted += len(ids)
		for _, id := range ids {
			if _, ok := done[id]; ok {
				t.Fatalf("kill %d: acknowledged %s was still pending", k, id)
			}
		}
		for id, want := range done {
			_, res, err := store.Lookup(ctx, id)
			if err != nil || res == nil {
				t.Fatalf("kill %d: acknowledged %s lost: %v", k, id, err)
			}
			value := "-"
			if res.Outcome == question.Answered {
				value = string(res.Value)
			}
			if got := string(res.Outcome) + " " + value; got != want {
				t.Fatalf("kill %d: %s is %s, acknowledged as %s", k, id, got, want)
			}
		}
		for id, plan := range asked {
			if _, ok := done[id]; ok {
				continue
			}
			_, res, err := store.Lookup(ctx, id)
			if err != nil || res == nil {
				t.Fatalf("kill %d: asked %s missing or still pending: %v", k, id, err)
			}
			// Killed before the ack: the decision may have been committed or not.
			if res.Outcome != question.Interrupted && res.Outcome != plan {
				t.Fatalf("kill %d: unacknowledged %s (plan %s) ended %s", k, id, plan, res.Outcome)
			}
			if plan == "pending" && res.Outcome != question.Interrupted {
				t.Fatalf("kill %d: never-answered %s ended %s", k, id, res.Outcome)
			}
		}
		if n := countPending(t, db); n != 0 {
			t.Fatalf("kill %d: %d rows still pending after InterruptPending", k, n)
		}
		if err := store.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range asked {
		if p == "pending" {
			pendingPlans++
		}
	}
	if acked == 0 || interrupted == 0 {
		t.Fatalf("the kills found nothing to check: %d acknowledged, %d interrupted", acked, interrupted)
	}
	t.Logf("%d kills in %v: %d questions asked, %d decisions acknowledged, %d left pending, %d interrupted on reopen",
		k, time.Since(start).Round(time.Millisecond), len(asked), acked, pendingPlans, interrupted)
}

// runAndKill runs the child on db, SIGKILLs it life after it said it is
// ready (the history is open) and returns what it printed.
func runAndKill(t *testing.T, db string, seed uint64, life time.Duration) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ASKTRAY_CRASH_CHILD=1", "ASKTRAY_CRASH_DB="+db, "ASKTRAY_CRASH_SEED="+strconv.FormatUint(seed, 10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	var out strings.Builder
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if sc.Text() == "ready" {
				close(ready)
				continue
			}
			out.WriteString(sc.Text() + "\n")
		}
	}()
	select {
	case <-ready:
		time.Sleep(life)
	case <-read:
	case <-time.After(30 * time.Second):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-read
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("child ended before the kill: %v\n%s", err, stderr.String())
	}
	return out.String()
}

// integrity runs PRAGMA integrity_check on the database as the kill left it.
func integrity(t *testing.T, db string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`PRAGMA integrity_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var res []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		res = append(res, s)
	}
	if len(res) != 1 || res[0] != "ok" {
		t.Fatalf("integrity_check: %q", res)
	}
}

func countPending(t *testing.T, db string) int {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow(`SELECT COUNT(*) FROM questions WHERE state = 'pending'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
