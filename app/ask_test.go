package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/mcpbridge"
)

// TestAskModeSetting: ask_mode is validated by name, and applying settings
// changes the bridge's mode unless --ask chose one for this run.
func TestAskModeSetting(t *testing.T) {
	t.Parallel()
	err := settings.Settings{AskMode: "mcp"}.Validate()
	if err == nil || err.Error() != `ask_mode: must be one of desktop, client, auto, got "mcp"` {
		t.Fatalf("Validate: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, settings.File), []byte(`{"ask_mode":"auto"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := settings.Load(dir)
	if err != nil || st.AskMode != "auto" {
		t.Fatalf("LoadSettings: %+v %v", st, err)
	}
	b := question.NewBroker(question.Config{})
	defer b.Close()
	for _, tc := range []struct {
		flag question.AskMode
		set  string
		want question.AskMode
	}{
		{"", "client", question.AskClient},
		{"", "", question.AskDesktop},
		{question.AskAuto, "client", question.AskAuto},
		{question.AskDesktop, "auto", question.AskDesktop},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		k := &settingsKeeper{dir: dir, store: historytest.New(t), log: slog.New(slog.DiscardHandler), ctx: ctx, askFlag: tc.flag,
			bridge: mcpbridge.New(mcpbridge.Config{Broker: b})}
		if err := k.apply(settings.Settings{AskMode: tc.set}); err != nil {
			t.Fatal(err)
		}
		if got := k.bridge.AskMode(); got != tc.want {
			t.Errorf("flag %q, setting %q: mode %q, want %q", tc.flag, tc.set, got, tc.want)
		}
		k.stop()
		cancel()
	}
}

func TestRunRefusesUnknownAsk(t *testing.T) {
	t.Parallel()
	err := Run(context.Background(), Options{DataDir: t.TempDir(), Addr: "127.0.0.1:0", Headless: true, Ask: "yad"})
	if err == nil || !strings.Contains(err.Error(), `--ask: must be one of desktop, client, auto, got "yad"`) {
		t.Fatalf("Run: %v", err)
	}
}

// TestMaxPendingSetting: max_pending_per_session is validated and applied
// to the running bridge and to the agent hooks; unset means the default of 20.
func TestMaxPendingSetting(t *testing.T) {
	t.Parallel()
	if err := (settings.Settings{MaxPendingPerSession: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "max_pending_per_session: must be between 1 and 1000") {
		t.Fatalf("Validate: %v", err)
	}
	b := question.NewBroker(question.Config{})
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := &settingsKeeper{dir: t.TempDir(), store: historytest.New(t), log: slog.New(slog.DiscardHandler), ctx: ctx}
	cfg := k.bridgeConfig(settings.Settings{MaxPendingPerSession: 7})
	cfg.Broker = b
	k.bridge = mcpbridge.New(cfg)
	defer k.stop()
	if got := k.bridge.MaxPending(); got != 7 {
		t.Fatalf("at start: %d, want 7", got)
	}
	for _, tc := range []struct{ set, want int }{{3, 3}, {0, question.DefaultMaxPending}, {1000, 1000}} {
		if err := k.apply(settings.Settings{MaxPendingPerSession: tc.set}); err != nil {
			t.Fatal(err)
		}
		if got := k.bridge.MaxPending(); got != tc.want {
			t.Errorf("setting %d: limit %d, want %d", tc.set, got, tc.want)
		}
		// The agent hooks read the same setting.
		if got := question.ClampMaxPending(k.hookSettings().MaxPending); got != tc.want {
			t.Errorf("setting %d: hook limit %d, want %d", tc.set, got, tc.want)
		}
	}
}
