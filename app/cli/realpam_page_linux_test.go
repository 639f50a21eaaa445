//go:build linux

package cli

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// link returns question id's page link as `asktray pending` shows it to
// the person on their terminal.
func (u *asUser) link(id string) string {
	u.t.Helper()
	p := u.walkCmd("pending")
	p.expect("/q/" + id + "?k=")
	_, screen := p.wait()
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/q/` + regexp.QuoteMeta(id) + `\?k=[A-Za-z0-9_-]+`).FindString(screen)
	if m == "" {
		u.t.Fatalf("no link for %s in:\n%s", id, screen)
	}
	return m
}

// browserAs starts headless Chromium as the user (the page serves only the
// user who runs the app) with a profile in their home, and returns a tab.
func (u *asUser) browserAs() context.Context {
	u.t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		u.t.Fatal("chromium is not installed: make deps installs it")
	}
	profile, err := os.MkdirTemp(u.user.Home, "chromium-")
	if err != nil {
		u.t.Fatal(err)
	}
	if err := os.Chown(profile, int(u.user.UID), int(u.user.GID)); err != nil {
		u.t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Env("HOME="+u.user.Home),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			if cmd.SysProcAttr == nil {
				cmd.SysProcAttr = u.user.Credential()
			} else {
				cmd.SysProcAttr.Credential = u.user.Credential().Credential
			}
		}),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	u.t.Cleanup(func() { cancel(); cancelAlloc() })
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	u.t.Cleanup(cancelTimeout)
	focused := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	if err := chromedp.Do(ctx, focused); err != nil {
		u.t.Fatalf("start chromium as %s: %v", u.user.Name, err)
	}
	return ctx
}

// allowOnPage presses Allow on the open page with password typed in (none
// when ""), and returns the text the page then shows.
func allowOnPage(t *testing.T, ctx context.Context, password string) string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`button[value="allow"]`))); err != nil {
		t.Fatal(err)
	}
	if password != "" {
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#password"), password)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`button[value="allow"]`))); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// TestPage_RealPAM answers the hook's approvals on the question page in a
// real browser run by the user who runs the real app, the password checked
// by the machine's PAM: a wrong one is refused and the question stays
// pending, the right one allows, the same browser's next page needs none
// (grace), and a browser session without grace is locked after three
// wrong passwords, even against the right one.
func TestPage_RealPAM(t *testing.T) {
	const password = "page Tr0ub4dor&3"
	u := startRealApp(t, password)
	q1, out1 := u.hook("make page-one")
	q2, out2 := u.hook("make page-two")
	ctx := u.browserAs()
	if err := chromedp.Do(ctx, chromedp.Navigate(u.link(q1))); err != nil {
		t.Fatal(err)
	}
	if got := allowOnPage(t, ctx, "not it"); !strings.Contains(got, "Wrong password (1 of 3") {
		t.Fatalf("a wrong password: the page says\n%s", got)
	}
	if got := allowOnPage(t, ctx, password); !strings.Contains(got, "You can close this tab") {
		t.Fatalf("the right password: the page says\n%s", got)
	}
	if got := wait(t, out1); !strings.Contains(got, `"behavior":"allow"`) {
		t.Errorf("the hook printed %q, want allow", got)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.link(q2))); err != nil {
		t.Fatal(err)
	}
	if got := allowOnPage(t, ctx, ""); !strings.Contains(got, "You can close this tab") {
		t.Fatalf("within the browser's grace: the page says\n%s", got)
	}
	if got := wait(t, out2); !strings.Contains(got, `"behavior":"allow"`) {
		t.Errorf("the hook printed %q, want allow", got)
	}

	q3, out3 := u.hook("make page-three")
	clear := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{})
		return err
	})
	if err := chromedp.Do(ctx, clear, chromedp.Navigate(u.link(q3))); err != nil {
		t.Fatal(err)
	}
	if got := allowOnPage(t, ctx, ""); !strings.Contains(got, "login password is needed") {
		t.Fatalf("a new browser session within none's grace: the page says\n%s", got)
	}
	for range 3 {
		allowOnPage(t, ctx, "guess")
	}
	if got := allowOnPage(t, ctx, password); !strings.Contains(got, "locked for") {
		t.Fatalf("the right password after three wrong: the page says\n%s", got)
	}
	for _, q := range u.pending() {
		if q.ID == q3 {
			return // still pending; its hook ends with the test
		}
	}
	t.Errorf("question %s ended; hook printed %q", q3, wait(t, out3))
}
