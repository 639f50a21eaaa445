package askdialog

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2/test"

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
