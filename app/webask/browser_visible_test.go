package webask

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/asktray/asktray/app/question"
)

// TestBrowser_InvisibleCharactersAreShown: a bidi override that would make
// "rm -rf ~" read like part of a harmless ls, an ANSI escape and forty
// empty lines reach the browser as visible markers, the risk line says why,
// and the agent's own text stays unchanged in the broker.
func TestBrowser_InvisibleCharactersAreShown(t *testing.T) {
	e := newRealEnv(t)
	ctx := newBrowser(t)
	cmd := "ls /tmp \u202e; rm -rf ~ #\u202c" + strings.Repeat("\n", 40) + "echo done"
	id, link := e.ask(question.Question{Kind: question.KindApproval, Message: "Deploy\x1b[8m hidden", Action: "Deploy\x1b[8m hidden",
		Details: "```sh\n" + cmd + "\n```", Risk: question.RiskHigh, RiskWhy: "deletes files recursively, `rm -r`"})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("#message pre"))))
	details := text(t, ctx, "#message pre")
	if !strings.Contains(details, "ls /tmp ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩") || strings.ContainsRune(details, '\u202e') {
		t.Errorf("details as shown: %q", details)
	}
	if !strings.Contains(details, "⟨39 empty lines⟩\necho done") {
		t.Errorf("the empty lines were not collapsed: %q", details)
	}
	if action := text(t, ctx, "h2"); action != "Deploy⟨U+001B⟩[8m hidden" {
		t.Errorf("action as shown: %q", action)
	}
	if w := text(t, ctx, "p.warning"); !strings.Contains(w, "High risk: deletes files recursively, “rm -r”. Allow only if you expected this request.") {
		t.Errorf("warning: %q", w)
	}
	q, _, err := e.broker.Get(id)
	must(t, err)
	if !strings.Contains(q.Details, "\u202e") || !strings.Contains(q.Message, "\x1b") {
		t.Errorf("the question itself was changed: %q %q", q.Message, q.Details)
	}
}
