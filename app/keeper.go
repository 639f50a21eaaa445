package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/hookservice"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/app/webask"
	"github.com/asktray/asktray/mcpbridge"
)

// settingsKeeper applies the person's settings while the app runs.
type settingsKeeper struct {
	dir    string
	store  history.Store
	log    *slog.Logger
	ctx    context.Context
	bridge *mcpbridge.Bridge
	// askFlag is --ask for this run ("" when not given), which wins over
	// the ask_mode setting; desktop says whether a desktop UI runs.
	askFlag question.AskMode
	desktop bool
	mcp     *mcpEndpoint
	web     *webask.Server
	policy  *policy.Policy

	applyMu sync.Mutex        // one apply at a time
	cur     settings.Settings // the settings applied last

	mu         sync.Mutex
	stopRetain context.CancelFunc
	login      func(on bool) error // writes or removes the start-at-login entry; nil: nothing to do
	loginOn    bool                // start_at_login as last applied
}

// apply validates s, moves the MCP server when mcp_port changed, saves s
// and applies it to the MCP bridge, the retention job and the away mode
// to the policy. A port that cannot be listened on is an error and nothing
// is saved. It blocks for the listen and a file write. Safe for concurrent use.
func (k *settingsKeeper) apply(s settings.Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	k.applyMu.Lock()
	defer k.applyMu.Unlock()
	if k.mcp != nil && s.MCPPort != k.cur.MCPPort {
		if _, err := k.mcp.move(s.MCPPort); err != nil {
			return err
		}
		k.cur.MCPPort = s.MCPPort
	}
	if err := k.applyLogin(s.StartAtLogin); err != nil {
		return err
	}
	if err := settings.Save(k.dir, s); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	k.cur = s
	if k.bridge != nil {
		k.bridge.Apply(k.bridgeConfig(s))
	}
	if k.web != nil {
		k.web.SetArmDelay(time.Duration(s.ArmDelayMS) * time.Millisecond)
	}
	if k.policy != nil {
		k.policy.SetAwayMode(s.AwayMode)
		k.policy.SetAwaySchedule(s.Schedule())
	}
	k.retain(s.HistoryRetentionDays)
	k.log.Info("settings applied", "default_timeout_seconds", s.DefaultTimeoutSeconds, "retention_days", s.HistoryRetentionDays)
	return nil
}

// hookSettings are the settings `asktray hook` calls read: the person's
// deadline, hook_ask_user_question and max_pending_per_session. Safe for concurrent use; it waits
// for an apply in progress.
func (k *settingsKeeper) hookSettings() hookservice.Settings {
	k.applyMu.Lock()
	defer k.applyMu.Unlock()
	return hookservice.Settings{
		Deadline:        question.TimeoutSeconds(int64(k.cur.DefaultTimeoutSeconds)),
		AskUserQuestion: k.cur.AskUserQuestionOn(),
		MaxPending:      k.cur.MaxPendingPerSession,
	}
}

// passwordGrace is the grace period a right login password opens now.
// Safe for concurrent use; it waits for an apply in progress.
func (k *settingsKeeper) passwordGrace() time.Duration {
	k.applyMu.Lock()
	defer k.applyMu.Unlock()
	return k.cur.PasswordGrace()
}

// askMode is the --ask flag when given, else the setting's mode.
func (k *settingsKeeper) askMode(setting question.AskMode) question.AskMode {
	if k.askFlag != "" {
		return k.askFlag
	}
	return setting
}

// retain (re)starts the retention job for days (0: keep everything).
func (k *settingsKeeper) retain(days int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopRetain != nil {
		k.stopRetain()
	}
	ctx, cancel := context.WithCancel(k.ctx)
	k.stopRetain = cancel
	go keepRetention(ctx, k.store, days, k.log)
}

func (k *settingsKeeper) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopRetain != nil {
		k.stopRetain()
	}
}

// bridgeConfig is s as the MCP bridge's settings, for New at start-up and
// Apply on a change alike: the ask mode is --ask when given (askMode), and
// whether a desktop shows questions is this run's.
func (k *settingsKeeper) bridgeConfig(s settings.Settings) mcpbridge.Config {
	cfg := mcpbridge.Config{Desktop: k.desktop}
	if s.DefaultTimeoutSeconds > 0 {
		cfg.DefaultTimeout = question.TimeoutSeconds(int64(s.DefaultTimeoutSeconds))
	}
	if len(s.BlockingWindows) > 0 {
		cfg.Windows = nil
		for _, w := range s.BlockingWindows {
			cfg.Windows = append(cfg.Windows, mcpbridge.WindowRule{Match: w.Match, Window: time.Duration(w.Seconds) * time.Second})
		}
		cfg.Windows = append(cfg.Windows, mcpbridge.DefaultWindows...)
	}
	if s.DefaultWindowSeconds > 0 {
		cfg.DefaultWindow = time.Duration(s.DefaultWindowSeconds) * time.Second
	}
	setting, _ := question.ParseAskMode(s.AskMode)
	cfg.AskMode = k.askMode(setting)
	if s.ProgressIntervalSeconds > 0 {
		cfg.ProgressEvery = time.Duration(s.ProgressIntervalSeconds) * time.Second
	}
	cfg.MaxPending = s.MaxPendingPerSession
	return cfg
}

// applyLogin writes or removes the start-at-login entry for on, when that
// changes anything: turning it off when it was off leaves alone an entry
// someone made by hand. Turning it on rewrites the entry, so that it runs
// the binary in use now. Safe for concurrent use.
func (k *settingsKeeper) applyLogin(on bool) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if (!on && !k.loginOn) || k.login == nil {
		k.loginOn = on
		return nil
	}
	if err := k.login(on); err != nil {
		return fmt.Errorf("start_at_login: %w", err)
	}
	k.loginOn = on
	return nil
}

// keepRetention deletes finished questions older than days, now and then
// daily, until ctx is done. days 0 keeps everything.
func keepRetention(ctx context.Context, store history.Store, days int, log *slog.Logger) {
	if days <= 0 {
		return
	}
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		n, err := store.DeleteOlderThan(ctx, time.Now().AddDate(0, 0, -days))
		if err != nil && ctx.Err() == nil {
			log.Warn("apply history retention", "err", err)
		} else if n > 0 {
			log.Info("history retention removed old questions", "count", n, "days", days)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
