package mcpbridge

import (
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

// TestDefaultWindows pins each client's blocking window under the point where
// it gives up on a tool call: Codex waits 300 s by default
// (https://github.com/openai/codex/pull/28234), so its window is 270 s.
func TestDefaultWindows(t *testing.T) {
	b := New(Config{Broker: question.NewBroker(question.Config{})})
	for name, want := range map[string]time.Duration{
		"codex-mcp-client": 270 * time.Second,
		"Codex":            270 * time.Second,
		"claude-ai":        50 * time.Second,
		"claude-code":      15 * time.Minute,
		"cursor-vscode":    270 * time.Second,
		"someone":          DefaultWindow,
	} {
		if got := b.window(question.Client{Name: name}); got != want {
			t.Errorf("%s: window %v, want %v", name, got, want)
		}
	}
}
