package askdialog

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
)

// assignMnemonics gives each answer button a letter that Alt presses with
// it (Alt+A: Allow once), so that every answer is one chord away whatever
// has focus: the buttons that answer first, in their order, then the ones
// that open a menu (Always…), each taking the first letter of its label no
// other has. Runs on the Fyne goroutine, once the bar's buttons exist.
func (d *questionDialog) assignMnemonics() {
	d.mnemonics = map[fyne.KeyName]*dialogButton{}
	var answers, menus []*dialogButton
	for _, b := range d.buttons {
		if b.act != nil && b.act.do != nil {
			menus = append(menus, b)
		} else {
			answers = append(answers, b)
		}
	}
	for _, b := range append(answers, menus...) {
		for _, r := range strings.ToUpper(b.Text) {
			if r > unicode.MaxASCII || !unicode.IsLetter(r) {
				continue
			}
			if k := fyne.KeyName(string(r)); d.mnemonics[k] == nil {
				d.mnemonics[k] = b
				break
			}
		}
	}
}

// mnemonicHelp names the Alt letters of the buttons that Enter and Esc do
// not already press ("Alt+A: Allow once"), in the buttons' order.
func (d *questionDialog) mnemonicHelp() []string {
	var parts []string
	for _, b := range d.buttons {
		if b == d.defaultButton || b == d.noButton {
			continue
		}
		for k, mb := range d.mnemonics {
			if mb == b {
				parts = append(parts, fmt.Sprintf("Alt+%s: %s", k, b.Text))
			}
		}
	}
	return parts
}

// enterRefusal implements keyTarget: a kind whose answer Enter must not
// send as it stands (an empty text answer) says why.
func (d *questionDialog) enterRefusal() error {
	if r, ok := d.r.(interface{ EnterRefusal() error }); ok {
		return r.EnterRefusal()
	}
	return nil
}

// refuse implements keyTarget: Enter while the buttons are locked is said
// in the unlock hint, until they unlock; anything else is an error line.
func (d *questionDialog) refuse(err error) {
	if errors.Is(err, errEnterLocked) {
		d.enterEarly = true
		d.guardChanged()
		return
	}
	d.showError(err)
}
