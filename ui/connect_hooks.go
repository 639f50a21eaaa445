package ui

import (
	"bytes"
	"fmt"
	"os"

	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/question/present"
)

// chooseHooks shows agent's hooks setup and whether they are installed.
func (c *connectWindow) chooseHooks(agent string) {
	c.copyCommand.Hide()
	c.tokenRow.Hide() // the hooks carry no token
	c.install.Show()
	c.remove.Show()
	c.copySnippet.SetText("Copy hooks")
	c.copySnippet.Importance = widget.MediumImportance // Install hooks is the one to press
	c.copySnippet.Refresh()
	c.hint.SetText("Install hooks merges them into the agent's file (keeping everything there, with a backup); " +
		"the same as 'asktray config " + agent + " --hooks --write'.")
	h, err := clientsetup.HooksFor(agent, c.dataDir, c.deadline())
	if err != nil {
		c.installed.Hide()
		c.setText(err.Error())
		return
	}
	c.showInstalled(h)
	snip, err := h.Snippet()
	var buf bytes.Buffer
	if err == nil {
		err = h.Print(&buf)
	}
	if err != nil {
		c.setText(err.Error())
		return
	}
	c.snippet = string(snip)
	c.setText(buf.String())
}

// applyHooks installs (or removes) the chosen agent's hooks, shows what
// happened and whether they are installed now. It writes a small file on
// the Fyne goroutine.
func (c *connectWindow) applyHooks(remove bool) {
	h, err := clientsetup.HooksFor(c.client.Selected, c.dataDir, c.deadline())
	var buf bytes.Buffer
	if err == nil {
		if remove {
			err = h.Remove(&buf)
		} else {
			err = h.Write(&buf)
		}
		c.showInstalled(h)
	}
	if err != nil {
		buf.WriteString(err.Error())
	}
	c.setText(buf.String())
}

// showInstalled says whether h's hooks are in its agent's file, as the
// file holds them now. It reads a small file on the Fyne goroutine.
func (c *connectWindow) showInstalled(h clientsetup.Hooks) {
	text, imp := installedText(h)
	c.installed.SetText(text)
	c.installed.Importance = imp
	c.installed.Show()
	c.installed.Refresh()
}

// installedText says whether h's hooks are installed: every event asktray
// installs has its handler in the file, some have, or none has ('Check
// setup' checks each handler's command in full). It blocks on the file
// system only.
func installedText(h clientsetup.Hooks) (string, widget.Importance) {
	home, _ := os.UserHomeDir()
	path := present.HomePath(h.Path, home)
	n, want, exists, err := h.Count()
	if err != nil {
		return "Cannot tell whether hooks are installed: " + err.Error(), widget.DangerImportance
	}
	if !exists {
		return "Not installed: there is no " + path + " yet", widget.MediumImportance
	}
	switch n {
	case 0:
		return "Not installed: " + path + " has no asktray hooks", widget.MediumImportance
	case want:
		return "Hooks installed in " + path, widget.SuccessImportance
	default:
		return fmt.Sprintf("Partly installed in %s: %d of %d hooks; Install hooks adds the rest", path, n, want),
			widget.WarningImportance
	}
}
