// Package settings is the person's settings: what they are, their limits
// (Validate names the setting and the limit), and settings.json in the
// data dir. Applying them while the app runs is app's job. Load and Save
// block for the file system; any goroutine may call them.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// DefaultPort is the MCP port unless the settings or --addr say otherwise.
const DefaultPort = 7931

// File holds the person's settings in the data dir.
const File = "settings.json"

// BlockingWindow is how long blocking tool calls from clients whose name
// contains Match wait before returning pending.
type BlockingWindow struct {
	Match   string `json:"match"`
	Seconds int    `json:"seconds"`
}

// Settings are the person's choices; a missing file means the defaults.
type Settings struct {
	// DefaultTimeoutSeconds is the person's deadline for a question that
	// gives none (10..86400; default 300).
	DefaultTimeoutSeconds int `json:"default_timeout_seconds,omitempty"`
	// BlockingWindows override the built-in per-client windows, first match
	// wins; DefaultWindowSeconds applies to clients none matches.
	BlockingWindows      []BlockingWindow `json:"blocking_windows,omitempty"`
	DefaultWindowSeconds int              `json:"default_window_seconds,omitempty"`
	// HistoryRetentionDays deletes finished questions older than this many
	// days, on start and daily; 0 keeps everything (the default).
	HistoryRetentionDays int `json:"history_retention_days,omitempty"`
	// NotificationSound asks the notification server to play its
	// message sound with each new question (default off).
	NotificationSound bool `json:"notification_sound,omitempty"`
	// ArmDelayMS is how long a dialog must be visible and focused before
	// its answer controls work (300..5000; default 500).
	ArmDelayMS int `json:"arm_delay_ms,omitempty"`
	// AskMode says where questions go: "desktop" (the default), "client"
	// (the asking client's own form, MCP elicitation) or "auto"; the
	// --ask flag overrides it for one run.
	AskMode string `json:"ask_mode,omitempty"`
	// MCPPort is the loopback port of the MCP server (1024..65535; 0 means
	// DefaultPort). --addr overrides it at start; changing it while the app
	// runs moves the server at once, and every client must be set up again.
	MCPPort int `json:"mcp_port,omitempty"`
	// ProgressIntervalSeconds is how often a tool call that waits for the
	// person sends a progress notification to a client that asked for
	// them; clients that reset their timeout on progress stay alive
	// (1..60; default 15).
	ProgressIntervalSeconds int `json:"progress_interval_seconds,omitempty"`
	// AwayMode says what happens to new questions while away: "hold" (the
	// default: they wait silently), "reject" (auto_rejected, reason away) or
	// "handback" (handed back to the agent's own chat, status
	// needs_user_input; approvals and destructive confirmations wait).
	AwayMode policy.AwayMode `json:"away_mode,omitempty"`
	// AwaySchedule is when the person is away every week, in their words
	// ("weekdays after 18:00, weekends"; policy.ParseSchedule reads it),
	// beside switching away on and off; "" for none.
	AwaySchedule string `json:"away_schedule,omitempty"`
	// StartAtLogin starts asktray in the tray when the person logs in
	// (an XDG autostart entry on Linux and the BSDs; see autostart.go).
	StartAtLogin bool `json:"start_at_login,omitempty"`
	// HookAskUserQuestion answers Claude Code's own multiple-choice
	// questions (its AskUserQuestion tool) in the tray, through
	// `asktray hook claude-code` on PreToolUse (absent: on, since its
	// auto mode, Claude Code's default, asks nothing else through the
	// hooks; AskUserQuestionOn reads it).
	HookAskUserQuestion *bool `json:"hook_ask_user_question,omitempty"`
	// MaxPendingPerSession is how many questions (and, separately,
	// notices) one MCP client session may have pending at once; the next
	// ask is refused (1..1000; default 20).
	MaxPendingPerSession int `json:"max_pending_per_session,omitempty"`
	// PasswordGraceMinutes is how long the login password, given to allow
	// on a terminal or in a browser, lets that same terminal or browser
	// allow again without it (0 asks every time, at most 15; absent: 5).
	// A restart of the app ends every grace period.
	PasswordGraceMinutes *int `json:"password_grace_minutes,omitempty"`
	// GlobalShortcut is a key chord ("Ctrl+Alt+A", ParseShortcut) that
	// brings the pending question to the front from any program; "" is
	// off, the default. On X11 the app grabs it; see docs/desktop.md for
	// Wayland.
	GlobalShortcut string `json:"global_shortcut,omitempty"`
}

// PasswordGrace is password_grace_minutes as a duration (the default when
// absent).
func (s Settings) PasswordGrace() time.Duration {
	if s.PasswordGraceMinutes == nil {
		return personcheck.DefaultGrace
	}
	return time.Duration(*s.PasswordGraceMinutes) * time.Minute
}

// Load reads the settings of dir. A missing file gives the zero
// Settings (the defaults); a malformed one is an error naming the file.
func Load(dir string) (Settings, error) {
	var s Settings
	path := filepath.Join(dir, File)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	} else if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("settings %s: %w", path, err)
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("settings %s: %w", path, err)
	}
	return s, nil
}

// The limits the settings share with the questions themselves: a
// deadline in seconds (question.MinTimeout..MaxTimeout) and the arming
// delay in milliseconds (question.MinArmDelay..MaxArmDelay).
const (
	minTimeout = int(question.MinTimeout / time.Second)
	maxTimeout = int(question.MaxTimeout / time.Second)
	minArm     = int(question.MinArmDelay / time.Millisecond)
	maxArm     = int(question.MaxArmDelay / time.Millisecond)
)

// Validate checks every setting against its limits; the error names the
// setting and the limit.
func (s Settings) Validate() error {
	// Each number must be 0 (the default) or lie within its limits; the
	// message is the limits as the person reads them.
	for _, f := range []struct {
		name    string
		v       int
		lo, hi  int
		between string
	}{
		{"default_timeout_seconds", s.DefaultTimeoutSeconds, minTimeout, maxTimeout, fmt.Sprintf("between %d and %d", minTimeout, maxTimeout)},
		{"default_window_seconds", s.DefaultWindowSeconds, 1, maxTimeout, fmt.Sprintf("between 1 and %d", maxTimeout)},
		{"history_retention_days", s.HistoryRetentionDays, 0, 36500, "between 0 (keep everything) and 36500"},
		{"arm_delay_ms", s.ArmDelayMS, minArm, maxArm, fmt.Sprintf("between %d and %d", minArm, maxArm)},
		{"mcp_port", s.MCPPort, 1024, 65535, fmt.Sprintf("between 1024 and 65535 (0 for the default %d)", DefaultPort)},
		{"progress_interval_seconds", s.ProgressIntervalSeconds, 1, 60, "between 1 and 60"},
		{"max_pending_per_session", s.MaxPendingPerSession, 1, question.MaxMaxPending, fmt.Sprintf("between 1 and %d", question.MaxMaxPending)},
	} {
		if f.v != 0 && (f.v < f.lo || f.v > f.hi) {
			return fmt.Errorf("%s: must be %s, got %d", f.name, f.between, f.v)
		}
	}
	if g := s.PasswordGraceMinutes; g != nil && (*g < 0 || time.Duration(*g)*time.Minute > personcheck.MaxGrace) {
		return fmt.Errorf("password_grace_minutes: must be between 0 (ask every time) and %d, got %d", int(personcheck.MaxGrace/time.Minute), *g)
	}
	if _, err := question.ParseAskMode(s.AskMode); err != nil {
		return fmt.Errorf("ask_mode: %w", err)
	}
	if s.AwayMode != "" && !s.AwayMode.Valid() {
		return fmt.Errorf("away_mode: must be hold, reject or handback, got %q", s.AwayMode)
	}
	if _, err := policy.ParseSchedule(s.AwaySchedule); err != nil {
		return fmt.Errorf("away_schedule: %w", err)
	}
	if s.GlobalShortcut != "" {
		if _, err := ParseShortcut(s.GlobalShortcut); err != nil {
			return fmt.Errorf("global_shortcut: %w", err)
		}
	}
	for i, w := range s.BlockingWindows {
		if w.Match == "" || w.Seconds < 1 || w.Seconds > maxTimeout {
			return fmt.Errorf("blocking_windows[%d]: needs a match and seconds between 1 and %d", i, maxTimeout)
		}
	}
	return nil
}

// Save writes s to dir (0600).
func Save(dir string, s Settings) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, File), append(b, '\n'), 0o600)
}

// MCPAddr returns the loopback address the MCP server listens on when no
// --addr is given: 127.0.0.1 and MCPPort, or DefaultPort.
func (s Settings) MCPAddr() string {
	port := s.MCPPort
	if port == 0 {
		port = DefaultPort
	}
	return "127.0.0.1:" + strconv.Itoa(port)
}

// Schedule is away_schedule as read (none when it does not read, which
// Validate refuses).
func (s Settings) Schedule() policy.Schedule {
	sched, _ := policy.ParseSchedule(s.AwaySchedule)
	return sched
}

// AskUserQuestionOn reports whether Claude Code's own questions are asked in
// the tray: hook_ask_user_question, on when absent.
func (s Settings) AskUserQuestionOn() bool {
	return s.HookAskUserQuestion == nil || *s.HookAskUserQuestion
}
