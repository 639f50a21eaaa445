package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/mcpbridge"
)

// SettingsFile holds the person's settings in the data dir.
const SettingsFile = "settings.json"

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
}

// LoadSettings reads the settings of dir. A missing file gives the zero
// Settings (the defaults); a malformed one is an error naming the file.
func LoadSettings(dir string) (Settings, error) {
	var s Settings
	path := filepath.Join(dir, SettingsFile)
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
	if s.DefaultTimeoutSeconds != 0 && (s.DefaultTimeoutSeconds < 10 || s.DefaultTimeoutSeconds > 86400) {
		return s, fmt.Errorf("settings %s: default_timeout_seconds: must be between 10 and 86400, got %d", path, s.DefaultTimeoutSeconds)
	}
	if s.HistoryRetentionDays < 0 || s.HistoryRetentionDays > 36500 {
		return s, fmt.Errorf("settings %s: history_retention_days: must be between 0 (keep everything) and 36500, got %d", path, s.HistoryRetentionDays)
	}
	for i, w := range s.BlockingWindows {
		if w.Match == "" || w.Seconds < 1 || w.Seconds > 86400 {
			return s, fmt.Errorf("settings %s: blocking_windows[%d]: needs a match and seconds between 1 and 86400", path, i)
		}
	}
	return s, nil
}

// SaveSettings writes s to dir (0600).
func SaveSettings(dir string, s Settings) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, SettingsFile), append(b, '\n'))
}

// bridgeConfig applies s to the MCP bridge's configuration.
func (s Settings) bridgeConfig(cfg mcpbridge.Config) mcpbridge.Config {
	if s.DefaultTimeoutSeconds > 0 {
		cfg.DefaultTimeout = question.ClampTimeout(time.Duration(s.DefaultTimeoutSeconds) * time.Second)
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
	return cfg
}
