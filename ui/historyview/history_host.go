package historyview

import (
	"context"

	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
)

// The host filter's first two choices: every question, and this
// machine's own agents' (history.ThisMachine); each remote host that asked
// follows (docs/remote.md).
const (
	hostAll  = "All hosts"
	hostHere = "This machine"
)

// newHostSelect makes the host filter, hidden until a remote host has
// asked. It runs on the Fyne goroutine, in build.
func (h *Window) newHostSelect() *widget.Select {
	h.hostSel = widget.NewSelect([]string{hostAll}, h.filterChanged)
	h.hostSel.SetSelectedIndex(0)
	h.hostSel.Hide()
	return h.hostSel
}

// hostFilter is history.Filter.Host for the chosen host: "" for all,
// history.ThisMachine, or a remote host's name.
func (h *Window) hostFilter() string {
	switch i := h.hostSel.SelectedIndex(); {
	case i == 1:
		return history.ThisMachine
	case i >= 2 && i-2 < len(h.hosts):
		return h.hosts[i-2]
	}
	return ""
}

// loadHosts refreshes the host filter's choices from the store: shown, in
// a fifth column of the filter bar, once a remote host has asked; a chosen
// host whose questions are all gone falls back to all hosts.
func (h *Window) loadHosts() {
	h.query(func(ctx context.Context) func() {
		names, err := h.store.Hosts(ctx)
		return func() {
			if err != nil {
				h.fail("list hosts", err)
				return
			}
			cur := h.hostSel.Selected
			h.hosts = names
			h.quiet = true
			h.hostSel.SetOptions(append([]string{hostAll, hostHere}, names...))
			h.hostSel.SetSelected(cur)
			gone := h.hostSel.SelectedIndex() < 0
			if gone {
				h.hostSel.SetSelectedIndex(0)
			}
			h.quiet = false
			cols := 4
			if len(names) > 0 {
				cols = 5
				h.hostSel.Show()
			} else {
				h.hostSel.Hide()
			}
			h.selects.Layout = layout.NewGridLayoutWithColumns(cols)
			h.selects.Refresh()
			if gone {
				h.reload()
			}
		}
	})
}
