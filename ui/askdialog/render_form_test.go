package askdialog

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/question"
)

const personSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":1},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150},
	"ok":{"type":"boolean","title":"Send the welcome mail"},
	"email":{"type":"string","format":"email","title":"Email"}
},"required":["name"]}`

func TestFormDialog_TypedContent(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Who is the new maintainer?", Schema: json.RawMessage(personSchema)})
	r := d.r.(*formRenderer)
	name, age, ok := r.fields[0], r.fields[1], r.fields[2]
	if name.label.Text != "Name *" || age.label.Text != "Age" {
		t.Errorf("labels %q %q", name.label.Text, age.label.Text)
	}
	if e.focused(d) != name.entry {
		t.Error("first entry has no focus")
	}
	d.guard.arm()
	test.Type(name.entry, "Ada")
	test.Type(age.entry, "36")
	test.Tap(ok.list.rows[0])
	test.Tap(findButton(t, d, "Submit"))
	res := e.result(d.q.ID)
	if res.Outcome != question.Answered || string(res.Value) != `{"name":"Ada","age":36,"ok":true}` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
}

func TestFormDialog_InvalidStaysPending(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Who?", Schema: json.RawMessage(personSchema)})
	r := d.r.(*formRenderer)
	name, age, email := r.fields[0], r.fields[1], r.fields[3]
	d.guard.arm()
	test.Type(email.entry, "ada at example")
	email.entry.FocusLost() // problems show once the person leaves the field
	if !email.msg.Visible() || email.msg.Text != "Enter an email address, like ada@example.com" {
		t.Errorf("email message %v %q", email.msg.Visible(), email.msg.Text)
	}
	test.Type(age.entry, "3x")
	age.entry.FocusLost()
	if !age.msg.Visible() {
		t.Error("no message for a bad integer")
	}
	test.Tap(findButton(t, d, "Submit"))
	if !name.msg.Visible() || name.msg.Text != "Required" {
		t.Errorf("name message %v %q", name.msg.Visible(), name.msg.Text)
	}
	if !d.errText.Visible() || d.errText.Text != "Please fix: Name, Age, Email" {
		t.Errorf("dialog message %q", d.errText.Text)
	}
	e.pending(d.q.ID)
	age.entry.SetText("200")
	if age.msg.Text != "Must be between 0 and 150" {
		t.Errorf("age message %q", age.msg.Text)
	}
}

func TestFormDialog_EnumsAndMultiSelect(t *testing.T) {
	e := newDialogEnv(t)
	schema := `{"type":"object","properties":{
		"channel":{"type":"string","title":"Channel","oneOf":[{"const":"stable","title":"Stable"},{"const":"beta","title":"Beta"}],"default":"beta"},
		"region":{"type":"string","title":"Region","enum":["eu-west-1","eu-central-1","us-east-1","us-east-2","us-west-2","ap-south-1"]},
		"targets":{"type":"array","title":"Targets","items":{"anyOf":[{"const":"linux","title":"Linux"},{"const":"mac","title":"macOS"},{"const":"win","title":"Windows"}]},"minItems":1},
		"ratio":{"type":"number","title":"Rollout"}
	},"required":["region","targets"]}`
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Release?", Schema: json.RawMessage(schema)})
	r := d.r.(*formRenderer)
	channel, region, targets, ratio := r.fields[0], r.fields[1], r.fields[2], r.fields[3]
	if channel.list == nil || !channel.list.rows[1].checked || channel.list.rows[1].label != "Beta" {
		t.Fatal("channel: radio list with the default picked expected")
	}
	if region.sel == nil || len(region.sel.Options) != 6 {
		t.Fatal("region: select expected for 6 values")
	}
	d.guard.arm()
	region.sel.SetSelected("us-east-1")
	test.Tap(targets.list.rows[2])
	test.Tap(targets.list.rows[0])
	test.Type(ratio.entry, "0.25")
	test.Tap(findButton(t, d, "Submit"))
	res := e.result(d.q.ID)
	want := `{"channel":"beta","region":"us-east-1","targets":["linux","win"],"ratio":0.25}`
	if string(res.Value) != want {
		t.Fatalf("value %s, want %s", res.Value, want)
	}
}

// sevenFields is a form of seven text fields with limits, a date among them.
const sevenFields = `{"type":"object","properties":{
	"title":{"type":"string","title":"Title","maxLength":200},
	"version":{"type":"string","title":"Version","minLength":5,"maxLength":20},
	"date":{"type":"string","format":"date","title":"Release date"},
	"owner":{"type":"string","format":"email","title":"Owner"},
	"replicas":{"type":"integer","title":"Replicas","minimum":1,"maximum":100},
	"ratio":{"type":"number","title":"Canary share","minimum":0,"maximum":1},
	"notes":{"type":"string","title":"Notes","description":"Anything the on-call person should know"}
},"required":["title","version","date"]}`

func TestFormDialog_TabScrollsTheFocusedFieldIntoView(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Release details?", Schema: json.RawMessage(sevenFields)})
	r := d.r.(*formRenderer)
	last := r.fields[len(r.fields)-1]
	if inScrollView(r.scroll, last.box) {
		t.Fatal("the last field is in view from the start: the form does not scroll, the test shows nothing")
	}
	for range 20 {
		if d.win.Canvas().Focused() == last.entry {
			break
		}
		d.win.Canvas().FocusNext() // Tab
	}
	if d.win.Canvas().Focused() != last.entry {
		t.Fatal("Tab never reached the last field")
	}
	if !inScrollView(r.scroll, last.box) {
		t.Errorf("the focused last field is off screen (offset %v, view %v)", r.scroll.Offset, r.scroll.Size())
	}
	d.win.Canvas().Focus(r.fields[0].entry) // back to the top, as Shift+Tab would
	if !inScrollView(r.scroll, r.fields[0].box) {
		t.Errorf("the focused first field is off screen (offset %v)", r.scroll.Offset)
	}
}

func TestFormDialog_TallerWindowGrowsTheFields(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Release details?", Schema: json.RawMessage(sevenFields)})
	r := d.r.(*formRenderer)
	fields, message := r.scroll.Size().Height, d.messageBox.Size().Height
	size := d.win.Canvas().Size()
	d.win.Resize(fyne.NewSize(size.Width, size.Height+200))
	if grew := r.scroll.Size().Height - fields; grew < 190 {
		t.Errorf("the fields grew by %v of 200", grew)
	}
	if got := d.messageBox.Size().Height; got != message {
		t.Errorf("the message box went from %v to %v high", message, got)
	}
}

func TestFormDialog_LimitsShownUpFront(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Release details?", Schema: json.RawMessage(sevenFields)})
	r := d.r.(*formRenderer)
	want := map[string]string{
		"title":    "At most 200 characters",
		"version":  "5–20 characters",
		"date":     "Date, YYYY-MM-DD",
		"replicas": "Whole number, 1–100",
		"ratio":    "Number, 0–1",
	}
	for _, ff := range r.fields {
		w, ok := want[ff.f.Name]
		if !ok {
			continue
		}
		if ff.rule == nil || !ff.rule.Visible() || ff.rule.Text != w {
			t.Errorf("%s: rule %v, want %q shown before anything is typed", ff.f.Name, ff.rule, w)
		}
	}
	if n := r.fields[6]; n.rule != nil {
		t.Errorf("notes: a rule %q for a plain string", n.rule.Text)
	}
	replicas := r.fields[4]
	d.guard.arm()
	test.Type(replicas.entry, "500")
	replicas.entry.FocusLost()
	if replicas.msg.Text != "Must be between 1 and 100" || !replicas.rule.Visible() {
		t.Errorf("after an error: message %q, rule shown %v", replicas.msg.Text, replicas.rule.Visible())
	}
}

func TestFormDialog_DatePicker(t *testing.T) {
	e := newDialogEnv(t)
	d := e.ask(question.Question{Kind: question.KindForm, Message: "Release details?", Schema: json.RawMessage(sevenFields)})
	r := d.r.(*formRenderer)
	date := r.fields[2]
	if date.pick == nil {
		t.Fatal("a date field without a date picker")
	}
	if r.fields[0].pick != nil {
		t.Error("a plain string field with a date picker")
	}
	date.entry.SetText("2026-03-01")
	test.Tap(date.pick)
	if d.popup == nil || !d.popup.Visible() {
		t.Fatal("the calendar did not open")
	}
	day, ok := findWidget(d.popup.Content, func(b *widget.Button) bool { return b.Text == "15" })
	if !ok {
		t.Fatal("no day 15 in the calendar")
	}
	test.Tap(day)
	if date.entry.Text != "2026-03-15" || d.popup != nil {
		t.Fatalf("entry %q, pop-up still open %v", date.entry.Text, d.popup != nil)
	}
	// Escape closes the calendar, not the question.
	test.Tap(date.pick)
	d.guard.arm()
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape} // the pop-up has focus: the key goes to the canvas
	d.keyDown(esc)
	d.win.Canvas().OnTypedKey()(esc)
	d.keyUp(esc)
	if d.popup != nil {
		t.Error("Escape left the calendar open")
	}
	e.pending(d.q.ID)
	// Typed dates are still checked.
	date.entry.SetText("2026-02-30")
	date.entry.FocusLost()
	if !date.msg.Visible() || date.msg.Text != "Enter a date as YYYY-MM-DD, like 2026-03-31" {
		t.Errorf("message for a bad typed date %q", date.msg.Text)
	}
}

// findWidget returns the first object of type T under o for which ok holds, and whether there is one.
func findWidget[T fyne.CanvasObject](o fyne.CanvasObject, ok func(T) bool) (T, bool) {
	if w, is := o.(T); is && ok(w) {
		return w, true
	}
	var kids []fyne.CanvasObject
	switch c := o.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		if w, found := findWidget(k, ok); found {
			return w, true
		}
	}
	var zero T
	return zero, false
}
