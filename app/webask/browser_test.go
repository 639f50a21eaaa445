package webask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/asktray/asktray/app/question"
)

// browser is one headless Chromium shared by the tests; each test gets its
// own tab.
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	os.Exit(code)
}

// startBrowser starts Debian's headless Chromium with the flags this
// machine's closed network needs (no background networking, no component
// updates, no sync) and a fresh profile.
func startBrowser() {
	path, err := exec.LookPath("chromium")
	if err != nil {
		browser.err = errors.New("chromium is not installed: run `make deps` (it installs Debian's chromium package)")
		return
	}
	profile, err := os.MkdirTemp("", "asktray-chromium-")
	if err != nil {
		browser.err = err
		return
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1000, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	browser.ctx = ctx
	browser.cancel = func() {
		cancel()
		cancelAlloc()
		// Chromium's children may still write to the profile for a moment.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// No timeout here: the browser lives as long as the context it starts with.
	if err := chromedp.Do(ctx); err != nil {
		browser.err = fmt.Errorf("start chromium: %w", err)
	}
}

// newBrowser returns a new tab of the shared Chromium, closed when the test
// ends. A missing Chromium fails the test: CI installs it with `make deps`.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	browser.once.Do(startBrowser)
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	// A headless page never has the window focus the page arms on; the
	// browser stands in for a person's focused window.
	focused := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	if err := chromedp.Do(ctx, focused); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	must(t, err)
	return s
}

// TestBrowser_FormRoundTrip drives a real browser through a form question:
// the buttons arm only after the delay, a bad value comes back next to its
// field with the input kept, the corrected answer reaches the agent's Wait
// with its JSON types, and the spent link then shows the not-found page.
func TestBrowser_FormRoundTrip(t *testing.T) {
	e := newRealEnv(t)
	e.web.SetArmDelay(700 * time.Millisecond)
	ctx := newBrowser(t)
	id, link := e.ask(question.Question{Kind: question.KindForm, Header: "New maintainer",
		Message: "Who takes over the release branch?", Schema: schema(personSchema)})
	got := make(chan question.Result, 1)
	go func() { // the agent's side: a blocking ask
		res, err := e.broker.Wait(context.Background(), id)
		if err != nil {
			t.Errorf("wait: %v", err)
		}
		got <- res
	}()

	start := time.Now()
	must(t, chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitEnabled(chromedp.CSS(`button[value="accept"]`))))
	if armed := time.Since(start); armed < 700*time.Millisecond {
		t.Errorf("Submit armed %v after navigation, before the 700 ms delay", armed)
	}
	focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`))
	must(t, err)
	if focused != "f0" {
		t.Errorf("focus on %q, want the first text field f0", focused)
	}

	// A bad integer and a missing required field come back marked, input kept.
	must(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#f0"), "Ada Lovelace"),
		chromedp.SendKeys(chromedp.CSS("#f1"), "36x"),
	))
	_, err = chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`button[value="accept"]`)))
	must(t, err)
	if msg := text(t, ctx, "#f1-msg"); msg != "Enter a whole number, like 42" {
		t.Errorf("age message %q", msg)
	}
	if msg := text(t, ctx, "#f7-msg"); msg != "Pick at least 1" {
		t.Errorf("targets message %q", msg)
	}
	kept, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#f0")))
	must(t, err)
	if kept != "Ada Lovelace" {
		t.Errorf("name not kept: %q", kept)
	}
	if focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`)); focused != "f1" {
		t.Errorf("focus on %q after the refusal, want the first field with a problem, f1", focused)
	}
	e.pending(id)

	// Fix it with the keyboard and mouse, and send.
	must(t, chromedp.Do(ctx,
		chromedp.WaitEnabled(chromedp.CSS(`button[value="accept"]`)),
		chromedp.Clear(chromedp.CSS("#f1")),
		chromedp.SendKeys(chromedp.CSS("#f1"), "36"),
		chromedp.SendKeys(chromedp.CSS("#f2"), "0.25"),
		chromedp.Click(chromedp.CSS("#f3")),
		chromedp.SendKeys(chromedp.CSS("#f4"), "ada@example.com"),
		chromedp.SetValue(chromedp.CSS("#f6"), "2"),
		chromedp.Click(chromedp.CSS("#f7-2")),
		chromedp.Click(chromedp.CSS("#f7-0")),
	))
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`button[value="accept"]`)))
	must(t, err)
	if resp.Status != http.StatusOK {
		t.Errorf("answer: status %d", resp.Status)
	}
	if out := text(t, ctx, ".result .outcome"); !strings.HasPrefix(out, "Answer sent.") {
		t.Errorf("result page says %q", out)
	}
	select {
	case res := <-got:
		want := `{"name":"Ada Lovelace","age":36,"ratio":0.25,"ok":true,"email":"ada@example.com","channel":"beta","region":"us-east-1","targets":["linux","win"]}`
		if res.Outcome != question.Answered || res.Via != question.ViaWeb || string(res.Value) != want {
			t.Fatalf("agent got %+v %s\nwant %s", res, res.Value, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the agent got no answer")
	}

	// The spent link now refuses, revealing nothing.
	resp, err = chromedp.Run(ctx, chromedp.NavigateResponse(link))
	must(t, err)
	if title, _ := chromedp.Run(ctx, chromedp.Title()); resp.Status != http.StatusNotFound || title != "No question here · Asktray" {
		t.Errorf("spent link: %d %q", resp.Status, title)
	}
}

// TestBrowser_Refusals: a page of another origin cannot post an answer,
// even holding a valid key and form token, whatever its referrer policy;
// an unknown id and a wrong key show the same page, which reveals nothing.
func TestBrowser_Refusals(t *testing.T) {
	e := newRealEnv(t)
	ctx := newBrowser(t)
	id, link := e.ask(question.Question{Kind: question.KindConfirm, Message: "Force-push main?", Destructive: true})
	vals := e.open(link) // a leaked key and a fresh token

	for _, policy := range []string{"strict-origin-when-cross-origin", "no-referrer"} {
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><meta name="referrer" content="%s"><title>win a prize</title>
<form id="f" method="post" action="%s/q/%s"><input name="k" value="%s"><input name="t" value="%s"><button name="action" value="yes">go</button></form>`,
				policy, e.ts.URL, id, html.EscapeString(vals.Get("k")), html.EscapeString(vals.Get("t")))
		}))
		must(t, chromedp.Do(ctx, chromedp.Navigate(evil.URL), chromedp.WaitEnabled(chromedp.CSS("#f button"))))
		resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS("#f button")))
		evil.Close()
		must(t, err)
		body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		if resp.Status != http.StatusForbidden || !strings.Contains(body, "Forbidden") {
			t.Errorf("cross-origin POST (%s): %d %q", policy, resp.Status, body)
		}
		e.pending(id)
	}

	u, _ := url.Parse(link)
	var first string
	for name, target := range map[string]string{
		"unknown id": e.ts.URL + "/q/" + question.NewID() + "?" + u.RawQuery,
		"wrong key":  e.ts.URL + "/q/" + id + "?k=" + randomToken(),
		"no key":     e.ts.URL + "/q/" + id,
	} {
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(target))
		must(t, err)
		page, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
		if resp.Status != http.StatusNotFound || strings.Contains(page, "Force-push") || strings.Contains(page, id) {
			t.Errorf("%s: %d\n%s", name, resp.Status, page)
		}
		if first == "" {
			first = page
		} else if page != first {
			t.Errorf("%s: a different page than the others", name)
		}
	}
	e.pending(id)
}

// TestBrowser_ArmingFollowsFocus: leaving the page disarms the buttons and
// coming back arms them again only after the delay; Enter then presses the
// default button, which for a destructive confirm is No.
func TestBrowser_ArmingFollowsFocus(t *testing.T) {
	e := newRealEnv(t)
	ctx := newBrowser(t)
	id, link := e.ask(question.Question{Kind: question.KindConfirm, Message: "Delete build/?", Destructive: true})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitEnabled(chromedp.CSS(`button[value="no"]`))))
	state, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`(() => {
		window.dispatchEvent(new Event("blur"));
		const off = document.querySelector('button[value="yes"]').disabled;
		const hint = document.getElementById("hint").textContent;
		window.dispatchEvent(new Event("focus"));
		return [off, hint, document.querySelector('button[value="yes"]').disabled, document.activeElement.value];
	})()`))
	must(t, err)
	if b, _ := json.Marshal(state); string(b) != `[true,"Answer buttons unlock when this page has focus.",true,"no"]` {
		t.Errorf("after blur and focus: %s", b)
	}
	must(t, chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`button[value="yes"]`))))
	_, err = chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if res := e.result(id); res.Outcome != question.Answered || string(res.Value) != `"no"` || res.Via != question.ViaWeb {
		t.Fatalf("Enter on a destructive confirm gave %+v %s", res, res.Value)
	}
}

// TestBrowser_TypingNeverArms is a person typing when the page pops up and
// takes focus: every key they press before the page is armed starts the
// delay again, so the buttons stay off however long they type and the Enter
// that ends their line does nothing; once the delay passes with no key
// pressed, Enter answers.
func TestBrowser_TypingNeverArms(t *testing.T) {
	e := newRealEnv(t)
	const delay = 1500 * time.Millisecond // far above the gaps between the keys below, even on a busy machine
	e.web.SetArmDelay(delay)
	ctx := newBrowser(t)
	id, link := e.ask(question.Question{Kind: question.KindConfirm, Message: "Push the branch?"})
	must(t, chromedp.Do(ctx, chromedp.Navigate(link)))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.enabledWhileTyping = false;
		new MutationObserver(() => {
			if (!document.querySelector('button[value="yes"]').disabled) { window.enabledWhileTyping = true; }
		}).observe(document.getElementById("answer"), {attributes: true, subtree: true});
		true`))
	must(t, err)
	for start := time.Now(); time.Since(start) < 3*delay; {
		must(t, chromedp.Do(ctx, chromedp.KeyEvent("x")))
		time.Sleep(100 * time.Millisecond)
	}
	must(t, chromedp.Do(ctx, chromedp.KeyEvent("\r"))) // the end of the line
	state, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[window.enabledWhileTyping,
		document.querySelector('button[value="yes"]').disabled, document.getElementById("hint").textContent]`))
	must(t, err)
	if b, _ := json.Marshal(state); string(b) != `[false,true,"Answer buttons unlock once you stop typing; what you type until then is ignored."]` {
		t.Fatalf("while typing [ever enabled, yes disabled, hint]: %s", b)
	}
	e.pending(id)
	typed := time.Now()
	must(t, chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`button[value="yes"]`))))
	if since := time.Since(typed); since < delay-200*time.Millisecond {
		t.Errorf("armed %v after the last key, want about %v", since, delay)
	}
	_, err = chromedp.RunResponse(ctx, chromedp.KeyEvent("\r"))
	must(t, err)
	if res := e.result(id); res.Outcome != question.Answered || string(res.Value) != `"yes"` || res.Via != question.ViaWeb {
		t.Fatalf("Enter once armed gave %+v %s", res, res.Value)
	}
}
