package ui

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/assets"
	"github.com/asktray/asktray/ui/askdialog"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

func ask(t *testing.T, b *question.Broker, q question.Question) question.Question {
	t.Helper()
	q, err := b.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func labels(tr *tray) []string {
	var out []string
	for _, it := range tr.menu.Items {
		if !it.IsSeparator {
			out = append(out, it.Label)
		}
	}
	return out
}

func TestTray_MenuListsPendingQuestions(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data"})
	var opened []string
	tr.open = func(id string) { opened = append(opened, id) }
	tr.install()
	if got := labels(tr); len(got) != 9 || got[0] != "No pending questions" || got[1] != "Away (do not disturb)" || got[2] != "History…" || got[5] != "Connect a client…" || got[6] != "Welcome…" || got[7] != "Settings…" || got[8] != "Quit" {
		t.Fatalf("idle menu %q", got)
	}
	q1 := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Delete   the build\ndirectory and everything in it, including caches?"})
	ask(t, b, question.Question{Kind: question.KindText, FreeText: true, Client: question.Client{Name: "cursor"}, Header: "Branch", Message: "Name?"})
	tr.refresh()
	got := labels(tr)
	want := []string{"2 pending questions", "claude-code: Delete the build directory and everything in it…", "cursor: Branch", "Away (do not disturb)", "History…", "Status…", "Copy MCP URL", "Connect a client…", "Welcome…", "Settings…", "Quit"}
	if len(got) != len(want) {
		t.Fatalf("menu %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("item %d = %q, want %q", i, got[i], want[i])
		}
	}
	// Each question is marked with a dot in its agent's colour, the
	// dialog's (issue 38 item 12); the app's commands are not.
	for i, agent := range map[int]string{1: "claude-code", 2: "cursor"} {
		if ic := tr.menu.Items[i].Icon; ic == nil || ic != uitheme.AgentIcon(agent, a.Settings().ThemeVariant()) {
			t.Errorf("item %d (%s) has icon %v, want its agent's dot", i, agent, ic)
		}
	}
	if tr.menu.Items[1].Icon == tr.menu.Items[2].Icon && uitheme.AgentColor("claude-code", a.Settings().ThemeVariant()) != uitheme.AgentColor("cursor", a.Settings().ThemeVariant()) {
		t.Error("two agents' items share a dot")
	}
	for _, it := range tr.menu.Items[3:] {
		if it.Icon != nil {
			t.Errorf("%q has an icon", it.Label)
		}
	}
	tr.menu.Items[1].Action()
	if len(opened) != 1 || opened[0] != q1.ID {
		t.Fatalf("opened %v", opened)
	}
	if err := b.Snooze(q1.ID, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	tr.refresh()
	if l := tr.menu.Items[1].Label; l[len(l)-len("(snoozed)"):] != "(snoozed)" {
		t.Fatalf("snoozed item %q", l)
	}
	tr.showStatus()
	if tr.statusCount.Text != "2 pending questions" {
		t.Fatalf("status window shows %q", tr.statusCount.Text)
	}
	w := tr.status
	tr.showStatus()
	if tr.status != w {
		t.Fatal("status window was rebuilt")
	}
}

func TestTray_QuitAsksWhenQuestionsWait(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b})
	tr.install()
	ask(t, b, question.Question{Kind: question.KindConfirm, Message: "ok?"})
	tr.refresh()
	tr.menu.Items[len(tr.menu.Items)-1].Action()
	if tr.quit == nil {
		t.Fatal("quit with a pending question did not ask first")
	}
	if got := tr.quit.Title(); got != "Quit Asktray?" {
		t.Fatalf("title %q", got)
	}
}

// TestTray_ANoticeIsNotAQuestion: a notice (an agent's notify, the doctor's
// test request) is listed, but it does not count as a pending question: the
// icon stays idle, the count says "1 notice", and Quit does not warn of it
// (issue 37 item 11: it turned the badge amber and made Quit warn).
func TestTray_ANoticeIsNotAQuestion(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b})
	tr.install()
	ask(t, b, question.Question{Kind: question.KindNotice, Message: "Build finished", Client: question.Client{Name: "codex"}})
	tr.refresh()
	if got := labels(tr); got[0] != "No pending questions · 1 notice" || !strings.HasPrefix(got[1], "codex: ") {
		t.Fatalf("menu %q", got)
	}
	n, notices := present.Waiting(tr.pending)
	if tr.icon(n) != assets.TrayIdle || tr.tooltip(n, notices) != "Asktray: No pending questions · 1 notice" {
		t.Fatalf("icon idle %v, tooltip %q", tr.icon(n) == assets.TrayIdle, tr.tooltip(n, notices))
	}
	tr.showStatus()
	if tr.statusCount.Text != "No pending questions · 1 notice" {
		t.Fatalf("status window shows %q", tr.statusCount.Text)
	}
	quit := tr.menu.Items[len(tr.menu.Items)-1]
	if quit.Label != "Quit" {
		t.Fatalf("last item %q", quit.Label)
	}
	quit.Action()
	if tr.quit != nil {
		t.Fatal("Quit warned of a notice as of a waiting question")
	}

	ask(t, b, question.Question{Kind: question.KindConfirm, Message: "ok?"})
	tr.refresh()
	if got := labels(tr); got[0] != "1 pending question · 1 notice" {
		t.Fatalf("menu count %q", got[0])
	}
	if n, _ := present.Waiting(tr.pending); tr.icon(n) != assets.TrayPendingCount(1) {
		t.Fatal("a pending question did not change the icon")
	}
	tr.menu.Items[len(tr.menu.Items)-1].Action()
	if tr.quit == nil {
		t.Fatal("quit with a pending question did not ask first")
	}
}

func TestTray_AwayHoldsQuestionsSilently(t *testing.T) {
	a := test.NewTempApp(t)
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Policy: pol})
	tr.dialogs = askdialog.NewManager(a, b, askdialog.Options{ReuseWindows: true})
	tr.install()
	defer tr.followPolicy()()
	// Fyne's test driver runs fyne.Do on the calling goroutine, so events
	// are handed to this goroutine instead.
	events := make(chan question.Event, 16)
	stop := b.Subscribe(func(ev question.Event) { events <- ev })
	defer stop()
	away := item(tr, "Away (do not disturb)")
	if away == nil || away.Checked {
		t.Fatalf("away item %q checked=%v", away.Label, away.Checked)
	}
	away.Action()
	if !tr.away || !item(tr, "Away (do not disturb)").Checked || !pol.Away() {
		t.Fatal("away did not switch on in the tray and the policy")
	}
	before := len(a.Driver().AllWindows())
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Deploy?"})
	tr.handle(<-events)
	if len(tr.pending) != 1 {
		t.Fatalf("%d pending in the tray", len(tr.pending))
	}
	if n := len(a.Driver().AllWindows()); n != before || !tr.dialogs.Idle() {
		t.Fatalf("%d windows opened while away", n-before)
	}
	if item(tr, "codex: Deploy?") == nil {
		t.Fatalf("the held question is not in the menu: %q", labels(tr))
	}
	// Back from the CLI ('asktray away off' changes the policy): the tray
	// follows and the held question's dialog opens.
	if err := pol.SetAway(false); err != nil {
		t.Fatal(err)
	}
	if tr.away || item(tr, "Away (do not disturb)").Checked {
		t.Fatal("the tray did not follow away off from the policy")
	}
	if !tr.dialogs.Has(q.ID) {
		t.Fatal("coming back did not open the held dialog")
	}
	// Away on from the CLI shows in the tray too.
	if err := pol.SetAway(true); err != nil {
		t.Fatal(err)
	}
	if !tr.away || !item(tr, "Away (do not disturb)").Checked {
		t.Fatal("the tray did not follow away on from the policy")
	}
	// End the question and close its dialog: an open dialog keeps the
	// manager's one-second ticker running, and on Fyne's test driver its
	// ticks run on the ticker's goroutine, racing the next test's widgets.
	if err := b.Withdraw(q.ID); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		tr.handle(ev)
		if ev.Type == question.EventEnded && ev.Question.ID == q.ID {
			break
		}
	}
	if !tr.dialogs.Idle() {
		t.Fatal("the withdrawn question's dialog is still open")
	}
}

// TestTray_AwayRejectModeShowsNothing checks that with away on and the
// mode reject a new question ends at once as auto_rejected (reason away):
// no event for the tray to hold, no dialog, nothing pending.
func TestTray_AwayRejectModeShowsNothing(t *testing.T) {
	a := test.NewTempApp(t)
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	pol.SetAwayMode(policy.AwayReject)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Policy: pol})
	tr.dialogs = askdialog.NewManager(a, b, askdialog.Options{ReuseWindows: true})
	tr.install()
	defer tr.followPolicy()()
	item(tr, "Away (do not disturb)").Action()
	if tip := tr.tooltip(0, 0); !tr.away || tip != "Asktray: No pending questions (away: new questions are rejected)" {
		t.Fatalf("away %v tip %q", tr.away, tip)
	}
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Deploy?"})
	res, err := b.Wait(context.Background(), q.ID)
	if err != nil || res.Outcome != question.AutoRejected || res.Reason != question.ReasonAway {
		t.Fatalf("result %+v %v", res, err)
	}
	tr.refresh()
	if len(tr.pending) != 0 || !tr.dialogs.Idle() {
		t.Fatalf("pending %d, dialogs idle %v", len(tr.pending), tr.dialogs.Idle())
	}
}

// TestTray_AwayHandbackMode: while away with mode handback the tooltip says
// questions go back to the agents' chats; a question ends at once (handed
// back) and opens nothing, while an approval is held in the tray, with no
// dialog, as with hold.
func TestTray_AwayHandbackMode(t *testing.T) {
	a := test.NewTempApp(t)
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	pol.SetAwayMode(policy.AwayHandback)
	b := question.NewBroker(question.Config{Gate: pol.Gate})
	defer b.Close()
	tr := newTray(a, app.Env{Broker: b, Policy: pol})
	tr.dialogs = askdialog.NewManager(a, b, askdialog.Options{ReuseWindows: true})
	tr.install()
	defer tr.followPolicy()()
	item(tr, "Away (do not disturb)").Action()
	if tip := tr.tooltip(0, 0); !tr.away || tip != "Asktray: No pending questions (away: questions go back to the agents' chats)" {
		t.Fatalf("away %v tip %q", tr.away, tip)
	}
	q := ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "codex"}, Message: "Tag it?"})
	res, err := b.Wait(context.Background(), q.ID)
	if err != nil || res.Outcome != question.AutoRejected || res.Reason != question.ReasonHandedBack {
		t.Fatalf("result %+v %v", res, err)
	}
	ask(t, b, question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"}, Message: "Deploy", Action: "Deploy"})
	tr.refresh()
	if len(tr.pending) != 1 || !tr.dialogs.Idle() {
		t.Fatalf("pending %d, dialogs idle %v", len(tr.pending), tr.dialogs.Idle())
	}
}

func item(tr *tray, label string) *fyne.MenuItem {
	for _, it := range tr.menu.Items {
		if it.Label == label {
			return it
		}
	}
	return nil
}

// TestTray_OpenInBrowserSubmenu: with question pages served, the tray has an
// "Open in browser" submenu listing each pending question, whose entry opens
// that question's forwarding file (never its link, whose key a command line
// would show); with nothing pending there is no such item.
func TestTray_OpenInBrowserSubmenu(t *testing.T) {
	a := &openerApp{App: test.NewTempApp(t)}
	b := question.NewBroker(question.Config{})
	defer b.Close()
	webURL := func(id string) string { return "http://127.0.0.1:7931/q/" + id + "?k=key-of-" + id }
	forward := func(id string) (string, error) { return "/data/open-" + id + ".html", nil }
	tr := newTray(a, app.Env{Broker: b, Endpoint: func() (string, string) { return "http://127.0.0.1:7931/mcp", "" }, DataDir: "/data",
		WebURL: webURL, WebOpenFile: forward})
	tr.install()
	for _, l := range labels(tr) {
		if l == "Open in browser" {
			t.Fatalf("idle menu has %q: %q", l, labels(tr))
		}
	}
	ask(t, b, question.Question{Kind: question.KindConfirm, Client: question.Client{Name: "claude-code"}, Message: "Delete build/?"})
	q2 := ask(t, b, question.Question{Kind: question.KindText, FreeText: true, Client: question.Client{Name: "cursor"}, Header: "Branch", Message: "Name?"})
	tr.refresh()
	var web *fyne.MenuItem
	for _, it := range tr.menu.Items {
		if it.Label == "Open in browser" {
			web = it
		}
	}
	if web == nil || web.ChildMenu == nil || len(web.ChildMenu.Items) != 2 {
		t.Fatalf("no Open in browser submenu with 2 entries: %q", labels(tr))
	}
	if got := web.ChildMenu.Items[1].Label; got != "cursor: Branch" {
		t.Fatalf("submenu entry %q, want %q", got, "cursor: Branch")
	}
	web.ChildMenu.Items[1].Action()
	if want := "file:///data/open-" + q2.ID + ".html"; len(a.opened) != 1 || a.opened[0] != want {
		t.Fatalf("opened %q, want %q", a.opened, want)
	}
	// An ended question's forwarder fails: nothing opens.
	tr.env.WebOpenFile = func(string) (string, error) { return "", errors.New("the question's page is gone: it has ended") }
	web.ChildMenu.Items[1].Action()
	if len(a.opened) != 1 {
		t.Fatalf("opened %q for an ended question", a.opened)
	}
}

// openerApp is a test app that records the URLs it is asked to open.
type openerApp struct {
	fyne.App
	opened []string
}

// OpenURL records u.
func (a *openerApp) OpenURL(u *url.URL) error {
	a.opened = append(a.opened, u.String())
	return nil
}
