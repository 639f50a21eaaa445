package webask

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/asktray/asktray/app/question"
)

// TestBrowser_RendersLikeTheDialog loads a real page from the running
// handler in Chromium: the headline is the <h1> and the tab's title, the
// agent's Markdown is rendered (a <pre> for its code block, no "**" left in
// the text the person reads, its script shown as text and never run, no
// link), and a form field's limits are shown before anything is submitted.
func TestBrowser_RendersLikeTheDialog(t *testing.T) {
	e := newRealEnv(t)
	ctx := newBrowser(t)
	_, link := e.ask(question.Question{Kind: question.KindForm, Header: "Release",
		Message: "I am about to **tag** the release:\n\n```sh\ngit tag -s v1.4.2 && git push origin v1.4.2\n```\n\n" +
			"See [the notes](javascript:alert(1)). <script>window.ran = true</script>",
		Schema: schema(`{"type":"object","properties":{"version":{"type":"string","title":"Version","minLength":3,"maxLength":20},
			"build":{"type":"integer","title":"Build number","minimum":1,"maximum":999}},"required":["version"]}`)})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("#message pre"))))
	if h1 := text(t, ctx, "h1"); h1 != "claude-code asks" {
		t.Errorf("h1: %q", h1)
	}
	if title, _ := chromedp.Run(ctx, chromedp.Title()); title != "claude-code asks · Asktray" {
		t.Errorf("title: %q", title)
	}
	if pre := strings.TrimSuffix(text(t, ctx, "#message pre"), "\n"); pre != "git tag -s v1.4.2 && git push origin v1.4.2" {
		t.Errorf("code block: %q", pre)
	}
	msg := text(t, ctx, "#message")
	for _, w := range []string{"I am about to tag the release:", "See the notes (javascript:alert(1)).", "<script>window.ran = true</script>"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q: %q", w, msg)
		}
	}
	if body := text(t, ctx, "body"); strings.Contains(body, "**") || strings.Contains(body, "```") {
		t.Errorf("raw Markdown on the page: %q", body)
	}
	// Nothing has been submitted: the limits are shown all the same, in
	// the dialog's words, and the control names them.
	for sel, want := range map[string]string{"#f0-rule": "3–20 characters", "#f1-rule": "Whole number, 1–999"} {
		if got := text(t, ctx, sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	seen, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`(() => {
		const r = document.getElementById("f0-rule").getBoundingClientRect();
		const s = getComputedStyle(document.getElementById("f0-rule"));
		return [r.width > 0 && r.height > 0 && s.visibility === "visible" && s.display !== "none",
			document.getElementById("f0").getAttribute("aria-describedby"), document.querySelectorAll("[aria-invalid]").length];
	})()`))
	must(t, err)
	if seen[0] != true || seen[1] != "f0-rule f0-msg" || seen[2] != float64(0) {
		t.Errorf("limit shown, control's description, invalid controls: %v", seen)
	}
	state, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[document.querySelectorAll("#message strong").length,
		document.querySelectorAll("a[href], [src]").length, window.ran === true]`))
	must(t, err)
	if state[0] != float64(1) || state[1] != float64(0) || state[2] != false {
		t.Errorf("strong elements, links and sources, script ran: %v", state)
	}
}
