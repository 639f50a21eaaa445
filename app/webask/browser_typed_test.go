package webask

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/asktray/asktray/app/question"
)

// typeUnarmed types the rest of a terminal line into the page's focused
// control, as a person does whose keyboard the page took mid-line: letters,
// spaces and digits, Backspace, arrows, a paste (Input.insertText, which
// fires beforeinput and input as a paste does) and the Enter that ends the
// line, each key restarting the arming delay so the page never arms.
func typeUnarmed(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, k := range []string{"make e2e 1 3", kb.Backspace, kb.ArrowDown, "2"} {
		must(t, chromedp.Do(ctx, chromedp.KeyEvent(k)))
	}
	paste := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: "pasted"})
		return err
	})
	must(t, chromedp.Do(ctx, paste))
	must(t, chromedp.Do(ctx, chromedp.KeyEvent("\r")))
}

// TestBrowser_TextTypedBeforeArmingIsNotKept: what is typed into a text
// question's field before the page arms is dropped (docs/arming.md), so the
// field keeps its default; what the person types once it armed is kept.
// It fails when the page keeps keys typed before arming.
func TestBrowser_TextTypedBeforeArmingIsNotKept(t *testing.T) {
	e := newRealEnv(t)
	e.web.SetArmDelay(1500 * time.Millisecond) // far above the gaps between the keys, even on a busy machine
	ctx := newBrowser(t)
	def, _ := json.Marshal("feat/")
	id, link := e.ask(question.Question{Kind: question.KindText, Message: "Name the branch", FreeText: true, Default: def})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link)))
	typeUnarmed(t, ctx)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[document.getElementById("text").value,
		document.activeElement.id, document.getElementById("hint").textContent]`))
	must(t, err)
	if b, _ := json.Marshal(got); string(b) != `["feat/","text","Answer buttons unlock once you stop typing; what you type until then is ignored."]` {
		t.Fatalf("after typing before arming [value, focus, hint]: %s", b)
	}
	e.pending(id)
	must(t, chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`button[value="accept"]`))))
	must(t, chromedp.Do(ctx, chromedp.KeyEvent("x")))
	_, err = chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if res := e.result(id); res.Outcome != question.Answered || string(res.Value) != `"feat/x"` {
		t.Fatalf("answer %+v %s, want feat/x", res, res.Value)
	}
}

// TestBrowser_ChoiceTypedBeforeArmingPicksNothing: Space, arrows and digits
// on a multi-choice's focused check box before the page arms tick nothing;
// Space once armed ticks it. It fails when the page lets them through.
func TestBrowser_ChoiceTypedBeforeArmingPicksNothing(t *testing.T) {
	e := newRealEnv(t)
	e.web.SetArmDelay(1500 * time.Millisecond)
	ctx := newBrowser(t)
	id, link := e.ask(question.Question{Kind: question.KindMultiChoice, Message: "Which suites?", Options: suites})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link)))
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#o0"))))
	typeUnarmed(t, ctx)
	const ticked = `Array.from(document.querySelectorAll('input[name="pick"]')).map(c => c.checked)`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](ticked))
	must(t, err)
	if b, _ := json.Marshal(got); string(b) != `[false,false,false]` {
		t.Fatalf("ticked after typing before arming: %s", b)
	}
	e.pending(id)
	must(t, chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`.bar button[data-default]`))))
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
	got, err = chromedp.Run(ctx, chromedp.Evaluate[[]bool](ticked))
	must(t, err)
	if b, _ := json.Marshal(got); string(b) != `[true,false,false]` {
		t.Fatalf("Space once armed: ticked %s, want the first", b)
	}
}
