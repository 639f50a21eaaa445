package askdialog

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/question"
)

// queueOfFour is an open text question the person is typing into, then
// three more from another agent: a plain confirm, an approval and a
// destructive confirm, asked in that order.
func queueOfFour(t *testing.T) (e *dialogEnv, open *questionDialog, plain, approval, wipe string) {
	e = newDialogEnv(t)
	open = e.ask(question.Question{Kind: question.KindText, Header: "Branch name", Message: "Name the branch?", FreeText: true})
	e.clock.advance(time.Second)
	cursor := question.Client{Name: "cursor", Version: "1.7"}
	plain = e.askQueued(question.Question{Kind: question.KindConfirm, Client: cursor, Message: "Run the linters too?"})
	e.clock.advance(time.Second)
	approval = e.askQueued(shellRequest(cursor, "kubectl rollout restart deploy/api -n prod", question.RiskMedium, ""))
	e.clock.advance(time.Second)
	wipe = e.askQueued(question.Question{Kind: question.KindConfirm, Client: cursor, Message: "Delete 3 merged branches?"})
	return e, open, plain, approval, wipe
}

// TestQueue_NewQuestionsNeverTakeTheOpenDialog: questions asked while a
// dialog is open make no window and take no focus; the open dialog keeps
// its focus, its arming and what was typed, and says "1 of 4" and what
// comes next: the approval, though it was asked after the plain confirm.
func TestQueue_NewQuestionsNeverTakeTheOpenDialog(t *testing.T) {
	e := newDialogEnv(t)
	open := e.ask(question.Question{Kind: question.KindText, Header: "Branch name", Message: "Name the branch?", FreeText: true})
	entry := open.r.(*textRenderer).entry
	e.focusWindow(open)
	e.clock.advance(question.DefaultArmDelay)
	test.Type(entry, "feature/q")
	windows := len(e.app.Driver().AllWindows())
	cursor := question.Client{Name: "cursor"}
	ids := []string{
		e.askQueued(question.Question{Kind: question.KindConfirm, Client: cursor, Message: "Run the linters too?"}),
		e.askQueued(shellRequest(cursor, "kubectl rollout restart deploy/api -n prod", question.RiskMedium, "")),
		e.askQueued(question.Question{Kind: question.KindConfirm, Client: cursor, Message: "Delete 3 merged branches?"}),
	}
	for _, id := range ids {
		if !e.m.Queued(id) || e.m.byID[id] != nil {
			t.Fatalf("question %s got a dialog instead of waiting", id)
		}
	}
	if n := len(e.app.Driver().AllWindows()); n != windows || e.m.visible() != 1 || e.m.current != open {
		t.Fatalf("%d windows (was %d), %d visible: a new question took the screen", n, windows, e.m.visible())
	}
	if e.focused(open) != entry || entry.Text != "feature/q" || !open.guard.armed {
		t.Fatalf("the open dialog lost its focus, its text (%q) or its arming (%v)", entry.Text, open.guard.armed)
	}
	want := "1 of 4  ·  next: cursor — kubectl rollout restart d… in /home/ada/src/shop"
	if !open.queue.Visible() || open.queueText.Text != want {
		t.Fatalf("queue line %q (shown %v), want %q", open.queueText.Text, open.queue.Visible(), want)
	}
}

// TestQueue_NextOpensInOrder: answering the open dialog opens the next in
// queue order (approvals and destructive confirms first); Next goes to the
// following one and puts the open one back; a snooze opens the next; a
// withdrawn question leaves the queue; the last one shows no queue line.
func TestQueue_NextOpensInOrder(t *testing.T) {
	e, open, plain, approval, wipe := queueOfFour(t)
	open.guard.arm()
	e.press(open, fyne.KeyEscape)
	if res := e.result(open.q.ID); res.Outcome != question.Cancelled {
		t.Fatalf("result %+v", res)
	}
	d := e.m.current
	if d == nil || d.q.ID != approval || !d.visible {
		t.Fatalf("after the answer the open dialog is %v, want the approval", d)
	}
	if d.queueText.Text != "1 of 3  ·  next: cursor — Delete 3 merged branches?" {
		t.Fatalf("queue line %q", d.queueText.Text)
	}
	// Next: the destructive confirm opens, the approval waits again.
	d.guard.arm()
	test.Tap(nextButton(t, d))
	w := e.m.current
	if w == nil || w.q.ID != wipe || d.visible || d.guard.armed || !e.m.Queued(approval) {
		t.Fatalf("Next opened %v; approval visible %v armed %v", w, d.visible, d.guard.armed)
	}
	if w.guard.armed {
		t.Fatal("the dialog Next opened is armed before focus and delay")
	}
	// The waiting approval is named by what it would do, not "Bash".
	if !strings.Contains(w.queueText.Text, "next: cursor — kubectl rollout restart") || !strings.HasSuffix(w.queueText.Text, " in /home/ada/src/shop") {
		t.Fatalf("queue line %q", w.queueText.Text)
	}
	// A snooze opens the next: the approval again, the same dialog.
	w.snoozeItems()[1].Action()
	if e.m.current != d || !d.visible {
		t.Fatalf("after the snooze the open dialog is %v", e.m.current)
	}
	if err := e.broker.Withdraw(plain); err != nil {
		t.Fatal(err)
	}
	e.pump(question.EventEnded, plain)
	if e.m.Queued(plain) || d.queue.Visible() {
		t.Fatalf("withdrawn question still queued, or the line still shown: %q", d.queueText.Text)
	}
}

// TestQueue_NoticeOpensNoDialog: notify's notice is a notification and a
// history row, never a window of its own accord; the tray's item for it
// opens it, with OK only.
func TestQueue_NoticeOpensNoDialog(t *testing.T) {
	e := newDialogEnv(t)
	windows := len(e.app.Driver().AllWindows())
	id := e.askQueued(question.Question{Kind: question.KindNotice, Header: "Deploy finished", Message: "v1.4.2 is live."})
	e.m.Start()
	if e.m.byID[id] != nil || e.m.Queued(id) || len(e.app.Driver().AllWindows()) != windows {
		t.Fatal("a notice opened a dialog or joined the queue")
	}
	e.m.Open(id)
	d := e.m.current
	if d == nil || d.q.ID != id {
		t.Fatal("Open did not show the notice")
	}
	if got := strings.Join(buttonTexts(d), ","); got != "OK" {
		t.Fatalf("notice buttons %s", got)
	}
}

// nextButton returns the queue line's Next button.
func nextButton(t *testing.T, d *questionDialog) *dialogButton {
	t.Helper()
	for _, o := range test.LaidOutObjects(d.queue) {
		if b, ok := o.(*dialogButton); ok && b.Text == "Next" {
			return b
		}
	}
	t.Fatal("no Next button")
	return nil
}

// TestQueue_QuittingOpensNothing: when the app quits it closes the open
// dialog's window itself; the queue then opens no further window.
func TestQueue_QuittingOpensNothing(t *testing.T) {
	e, open, _, _, _ := queueOfFour(t)
	open.win.Close() // what Quit does to every window
	if e.m.current != nil || len(e.m.byID) != 0 || len(e.m.waiting) != 0 {
		t.Fatalf("after the window closed from outside: open %v, %d dialogs, %d waiting", e.m.current, len(e.m.byID), len(e.m.waiting))
	}
	e.pending(open.q.ID)
}

// TestDialog_WhoAndWhereFirst: a permission prompt leads with who asks,
// what the tool does and where, large; its session is named by project and
// start, the first question seen from it; it has no title "Bash".
func TestDialog_WhoAndWhereFirst(t *testing.T) {
	e := newDialogEnv(t)
	e.m.home = "/home/ada"
	c := question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0"}
	first := e.ask(question.Question{Kind: question.KindText, Client: c, Message: "Name?", FreeText: true})
	e.clock.advance(time.Second)
	first.close()
	q := shellRequest(c, "make deploy", question.RiskMedium, "")
	q.Cwd = "/home/ada/projects/payments-service"
	time.Sleep(2 * time.Millisecond) // asked after the first
	d := e.ask(q)
	if d.headline.Text != "claude-code wants to run a shell command in ~/projects/payments-service" || d.headline.SizeName != theme.SizeNameSubHeadingText {
		t.Fatalf("headline %q (size %s)", d.headline.Text, d.headline.SizeName)
	}
	if d.header != nil {
		t.Fatalf("a title %q besides the headline", d.header.Text)
	}
	if want := "claude-code 2.1.3  ·  session in payments-service since " + first.q.Created.Local().Format("15:04"); d.client.Text != want {
		t.Fatalf("client line %q, want %q", d.client.Text, want)
	}
}

// TestDialog_AgentNoticeSaysWhoAndWhere: an agent's own notification (made
// by the hook service) leads with its header, which names the agent and
// where it waits, not "claude-code says", and has no title repeating it;
// its message, starting with the project and session, is the body.
func TestDialog_AgentNoticeSaysWhoAndWhere(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindNotice, Client: question.Client{Name: "claude-code", SessionID: "3f2a1b9c-0000"},
		Tool: "notification", Origin: question.OriginAgentNotice, Header: "Claude Code is asking in its terminal",
		Message: "payments-service (session 3f2a1b9c…): Claude needs your permission to use Bash"})
	if d.headline.Text != "Claude Code is asking in its terminal" {
		t.Fatalf("headline %q", d.headline.Text)
	}
	if d.header != nil {
		t.Fatalf("a title %q besides the headline", d.header.Text)
	}
	if title, body := d.titleAndBody(); title != "" || !strings.HasPrefix(body, "payments-service (session 3f2a1b9c…): ") {
		t.Fatalf("title %q, body %q", title, body)
	}
}
