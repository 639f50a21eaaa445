package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
)

func TestEnsureDataDirTightensMode(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("unix modes")
	}
	dir := filepath.Join(t.TempDir(), "d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestToken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, err := datadir.LoadOrCreateToken(dir)
	if err != nil || len(a) != 64 {
		t.Fatalf("token %q %v", a, err)
	}
	b, err := datadir.LoadOrCreateToken(dir)
	if err != nil || a != b {
		t.Fatalf("token changed on reload: %q %q %v", a, b, err)
	}
	fi, _ := os.Stat(filepath.Join(dir, datadir.TokenFile))
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("token mode %v", fi.Mode().Perm())
	}
	c, err := datadir.RegenerateToken(dir)
	if err != nil || c == a {
		t.Fatalf("regenerate gave %q %v", c, err)
	}
}

func TestListenLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0", "example.com:80"} {
		if ln, err := listen(addr, false); err == nil {
			ln.Close()
			t.Errorf("%s accepted", addr)
		} else if !strings.Contains(err.Error(), "loopback") && !strings.Contains(err.Error(), "--addr") {
			t.Errorf("%s: unclear error %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := listen(addr, false)
		if err != nil {
			t.Errorf("%s refused: %v", addr, err)
			continue
		}
		ln.Close()
	}
}

func TestRunInProcess(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
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
	in, err := datadir.ReadInstance(dir)
	if err != nil || in.PID != os.Getpid() || !strings.HasPrefix(in.URL, "http://127.0.0.1:") || in.GUI {
		t.Fatalf("instance %+v %v", in, err)
	}

	// A second Run on the same dir refuses and names the first.
	err = Run(context.Background(), Options{DataDir: dir, Addr: "127.0.0.1:0", Headless: true})
	var are *AlreadyRunningError
	if !errors.As(err, &are) || are.Instance == nil || are.Instance.URL != in.URL {
		t.Fatalf("second Run: %v", err)
	}

	// settings.Settings saved while running are validated, written 0600 and applied.
	if err := env.ApplySettings(settings.Settings{DefaultTimeoutSeconds: 5}); err == nil || !strings.Contains(err.Error(), "default_timeout_seconds") {
		t.Fatalf("bad settings accepted: %v", err)
	}
	if err := env.ApplySettings(settings.Settings{ProgressIntervalSeconds: 61}); err == nil || !strings.Contains(err.Error(), "progress_interval_seconds: must be between 1 and 60") {
		t.Fatalf("bad progress interval accepted: %v", err)
	}
	if err := env.ApplySettings(settings.Settings{MaxPendingPerSession: 1001}); err == nil || !strings.Contains(err.Error(), "max_pending_per_session: must be between 1 and 1000, got 1001") {
		t.Fatalf("bad pending limit accepted: %v", err)
	}
	if err := env.ApplySettings(settings.Settings{DefaultTimeoutSeconds: 42, HistoryRetentionDays: 7, ProgressIntervalSeconds: 2}); err != nil {
		t.Fatal(err)
	}
	if st, err := settings.Load(dir); err != nil || st.DefaultTimeoutSeconds != 42 || st.HistoryRetentionDays != 7 || st.ProgressIntervalSeconds != 2 {
		t.Fatalf("settings on disk %+v %v", st, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, settings.File)); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings mode %v", fi.Mode().Perm())
	}
	// away_mode is validated and applied live to the policy the broker consults.
	if err := env.ApplySettings(settings.Settings{AwayMode: "approve"}); err == nil || !strings.Contains(err.Error(), "away_mode: must be hold, reject or handback") {
		t.Fatalf("bad away_mode accepted: %v", err)
	}
	if env.Policy == nil || env.Policy.AwayMode() != policy.AwayHold {
		t.Fatalf("Env.Policy %v", env.Policy)
	}
	if err := env.ApplySettings(settings.Settings{AwayMode: policy.AwayReject}); err != nil || env.Policy.AwayMode() != policy.AwayReject {
		t.Fatalf("away_mode reject: %v, mode %s", err, env.Policy.AwayMode())
	}
	// away_schedule too, to the same policy: "every day" is away now.
	if err := env.ApplySettings(settings.Settings{AwayMode: policy.AwayReject, AwaySchedule: "every day"}); err != nil ||
		!env.Policy.Away() || env.Policy.AwaySchedule().Describe() != "every day all day" {
		t.Fatalf("away_schedule every day: %v, away %v", err, env.Policy.Away())
	}
	if err := env.ApplySettings(settings.Settings{AwayMode: policy.AwayReject}); err != nil || env.Policy.Away() {
		t.Fatalf("away_schedule removed: %v, away %v", err, env.Policy.Away())
	}
	if err := env.Policy.SetAway(true); err != nil {
		t.Fatal(err)
	}
	away, err := env.Broker.Ask(ctx, question.Question{Kind: question.KindText, Message: "Name?", FreeText: true})
	if err != nil || away.State != question.State(question.AutoRejected) {
		t.Fatalf("ask while away: %+v %v", away, err)
	}
	if rec, err := env.Store.Get(ctx, away.ID); err != nil || rec.Result == nil || rec.Result.Reason != question.ReasonAway {
		t.Fatalf("history of the away question: %+v %v", rec, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, policy.File)); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("policy file: %v %v", fi, err)
	}
	if err := env.Policy.SetAway(false); err != nil {
		t.Fatal(err)
	}
	q, err := env.Broker.Ask(ctx, question.Question{Kind: question.KindConfirm, Message: "ok?"})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v", err)
	}
	// Ordered shutdown recorded the pending question as interrupted before closing the store.
	if _, _, err := env.Store.Lookup(context.Background(), q.ID); err == nil {
		t.Fatal("store still open after Run returned")
	}
	st, err := history.Open(filepath.Join(dir, datadir.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, res, err := st.Lookup(context.Background(), q.ID)
	if err != nil || res == nil || res.Outcome != question.Interrupted || res.DecidedBy != question.ByApp {
		t.Fatalf("after shutdown: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, datadir.InstanceFile)); !os.IsNotExist(err) {
		t.Fatalf("instance file left: %v", err)
	}
}

func TestRetentionDeletesOldFinishedQuestions(t *testing.T) {
	t.Parallel()
	store := historytest.New(t)
	old := question.Question{ID: "old", Kind: question.KindConfirm, Message: "m", Created: time.Now().AddDate(0, 0, -40), Deadline: time.Now()}
	fresh := question.Question{ID: "fresh", Kind: question.KindConfirm, Message: "m", Created: time.Now().AddDate(0, 0, -1), Deadline: time.Now()}
	oldPending := question.Question{ID: "old-pending", Kind: question.KindConfirm, Message: "m", Created: time.Now().AddDate(0, 0, -40), Deadline: time.Now()}
	ctx, cancel := context.WithCancel(context.Background())
	for _, q := range []question.Question{old, fresh, oldPending} {
		if err := store.Begin(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []question.Question{old, fresh} {
		if err := store.End(ctx, q, question.Result{Outcome: question.Declined, DecidedBy: question.ByHuman, DecidedAt: q.Created}); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { keepRetention(ctx, store, 30, slog.New(slog.DiscardHandler)); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := store.Get(ctx, "old"); errors.Is(err, question.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("old row kept")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	for _, id := range []string{"fresh", "old-pending"} {
		if _, err := store.Get(context.Background(), id); err != nil {
			t.Errorf("%s deleted: %v", id, err)
		}
	}
}
