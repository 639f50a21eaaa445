package mcpbridge

import (
	"context"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// A destructive confirmation is refused with default yes on the MCP path
// (validation, which every question passes through the broker), and its
// client form is never pre-checked even if such a question got through.
func TestDestructiveDefaultYesRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	s := e.connect(t, "claude-code", nil)
	for _, d := range []any{"yes"} {
		_, text, isErr := call(t, context.Background(), s, ToolAskConfirm, map[string]any{"question": "Delete build/?", "destructive": true, "default": d})
		if !isErr || !strings.Contains(text, `default: "yes" is not allowed with destructive`) {
			t.Errorf("default %v: isError %v, %s", d, isErr, text)
		}
	}
	for _, def := range []string{`"yes"`, `true`, ` "yes"`} {
		props, _ := confirmProps(question.Question{Kind: question.KindConfirm, Message: "m", Destructive: true, Default: []byte(def)})
		if got := props[propConfirm].(map[string]any)["default"]; got != false {
			t.Errorf("destructive with default %s: form default %v, want false", def, got)
		}
	}
	props, _ := confirmProps(question.Question{Kind: question.KindConfirm, Message: "m", Default: []byte(`"yes"`)})
	if got := props[propConfirm].(map[string]any)["default"]; got != true {
		t.Errorf("non-destructive default yes: form default %v", got)
	}
}
