package askdialog

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// TestDialog_AgentWearsItsColour: beside who asks, a bar in the agent's
// own colour (uitheme.AgentColor): one agent's dialogs wear one colour,
// another agent's another (issue 38 item 12).
func TestDialog_AgentWearsItsColour(t *testing.T) {
	e := newDialogEnv(t)
	colourOf := func(name string) (fyne.CanvasObject, any) {
		d := e.ask(question.Question{Kind: question.KindConfirm, Message: "Go on?", Client: question.Client{Name: name}})
		defer func() { e.press(d, fyne.KeyEscape); e.result(d.q.ID) }()
		e.focusWindow(d)
		e.clock.advance(question.DefaultArmDelay)
		if d.agentMark == nil || !d.agentMark.Visible() || d.agentMark.Size().Width <= 0 || d.agentMark.Size().Height <= 0 {
			t.Fatalf("%s: no agent mark drawn: %+v", name, d.agentMark)
		}
		return d.agentMark, d.agentMark.FillColor
	}
	v := fyne.CurrentApp().Settings().ThemeVariant()
	_, claude := colourOf("claude-code")
	_, claude2 := colourOf("claude-code")
	_, codex := colourOf("codex")
	if claude != uitheme.AgentColor("claude-code", v) || claude2 != claude {
		t.Errorf("claude-code wears %v then %v, want %v", claude, claude2, uitheme.AgentColor("claude-code", v))
	}
	if codex == claude {
		t.Errorf("codex and claude-code both wear %v", codex)
	}
}
