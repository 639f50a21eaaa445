package ui

import (
	"context"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/remote"
)

// remoteAdmin is what the Connect window's Remote hosts tab needs of the
// app (app.Env's remote host fields); states is nil when the app serves no
// hosts, and the tab is not shown.
type remoteAdmin struct {
	states func() []remote.State
	add    func(ctx context.Context, name string) (remote.Added, error)
	remove func(ctx context.Context, name string) (remote.Host, error, error)
}

// envRemote is env's remote host fields.
func envRemote(env app.Env) remoteAdmin {
	return remoteAdmin{states: env.RemoteHosts, add: env.AddRemoteHost, remove: env.RemoveRemoteHost}
}

// keyRevoked is the state the tab shows of a host removed while it was
// open: its key is revoked, it is no longer served.
const keyRevoked = "key revoked"

// hostWords says how a host's connection is, in words: "connected",
// "connecting", "reconnecting (Connection refused; retrying in 4s)" for a
// host that is down, or "key revoked".
func hostWords(s remote.State) string {
	switch s.State {
	case remote.Down:
		if s.Error != "" {
			return "reconnecting (" + present.Visible(s.Error) + ")"
		}
		return "reconnecting"
	}
	return s.State
}

// hostIcon is the icon of a host's state.
func hostIcon(state string) fyne.Resource {
	switch state {
	case remote.Connected:
		return theme.ConfirmIcon()
	case remote.Down:
		return theme.WarningIcon()
	case keyRevoked:
		return theme.CancelIcon()
	}
	return theme.ViewRefreshIcon()
}

// remoteTab is the Connect window's Remote hosts tab: each host with its
// connection's state and a Remove button, and a field that adds a host
// (remote.Add and remote.Remove, as 'asktray remote add' and 'rm' run
// them). Its methods run on the Fyne goroutine.
type remoteTab struct {
	admin   remoteAdmin
	win     func() fyne.Window
	rows    *fyne.Container // one row per host
	body    *fyne.Container // the rows and the result, in the scroll
	name    *widget.Entry
	add     *widget.Button
	result  *widget.Label // what the last add or remove did
	revoked []string      // hosts removed while the window was open
	busy    bool          // an add or remove is under way
	// confirm is the last removal's confirmation, for tests.
	confirm *dialog.ConfirmDialog
	// done, if set, learns that an add or remove finished (tests).
	done func()
	root fyne.CanvasObject
}

func newRemoteTab(admin remoteAdmin, win func() fyne.Window) *remoteTab {
	r := &remoteTab{admin: admin, win: win, rows: container.NewVBox()}
	r.name = widget.NewEntry()
	r.name.SetPlaceHolder("user@host or user@host:port, or a host of ~/.ssh/config")
	r.name.OnSubmitted = func(string) { r.addHost() }
	r.add = widget.NewButtonWithIcon("Add host", theme.ContentAddIcon(), r.addHost)
	r.add.Importance = widget.HighImportance
	r.result = widget.NewLabel("")
	r.result.Wrapping = fyne.TextWrapWord
	intro := widget.NewLabel("Agents on another machine, or running as another user of this one (agent@localhost), " +
		"ask this tray over SSH. Adding a host sets it up over ssh, as 'asktray remote add' does: " +
		"key login and known_hosts must work already (docs/remote.md).")
	intro.Wrapping = fyne.TextWrapWord
	// What the last add or remove did goes under the hosts, in the scroll:
	// a set-up's report may run to several lines.
	bottom := container.NewBorder(nil, nil, widget.NewLabel("Host"), r.add, r.name)
	r.body = container.NewVBox(r.rows, widget.NewSeparator(), r.result)
	r.root = container.NewBorder(intro, bottom, nil, nil, container.NewVScroll(r.body))
	return r
}

// refresh shows each host's state as it is now, and the hosts removed
// since the window opened as key revoked.
func (r *remoteTab) refresh() {
	states := r.admin.states()
	r.rows.RemoveAll()
	for _, s := range states {
		r.rows.Add(r.row(s.Name, s.State, hostWords(s), true))
	}
	for _, name := range r.revoked {
		if !slices.ContainsFunc(states, func(s remote.State) bool { return s.Name == name }) {
			r.rows.Add(r.row(name, keyRevoked, keyRevoked, false))
		}
	}
	if len(r.rows.Objects) == 0 {
		r.rows.Add(widget.NewLabelWithStyle("No remote hosts yet.", fyne.TextAlignLeading, fyne.TextStyle{Italic: true}))
	}
	r.body.Refresh() // lays the rows out anew
}

// row is one host: its state's icon, its name, the state in words and,
// while it is served, a Remove button.
func (r *remoteTab) row(name, state, words string, removable bool) fyne.CanvasObject {
	label := widget.NewLabel(present.Visible(name) + "   " + words)
	label.Truncation = fyne.TextTruncateEllipsis
	var right fyne.CanvasObject
	if removable {
		rm := widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { r.askRemove(name) })
		rm.Importance = widget.LowImportance
		if r.busy {
			rm.Disable()
		}
		right = rm
	}
	return container.NewBorder(nil, nil, widget.NewIcon(hostIcon(state)), right, label)
}

// setBusy disables adding and removing while one runs.
func (r *remoteTab) setBusy(busy bool) {
	r.busy = busy
	if busy {
		r.add.Disable()
	} else {
		r.add.Enable()
	}
	r.refresh()
}

// addHost sets the typed host up on a goroutine of its own and shows what
// it did. A bad name is refused at once, naming the part.
func (r *remoteTab) addHost() {
	name := strings.TrimSpace(r.name.Text)
	if r.busy {
		return
	}
	if _, err := remote.ParseName(name); err != nil {
		r.result.SetText(err.Error())
		return
	}
	r.setBusy(true)
	r.result.SetText("Setting " + name + " up over ssh…")
	go func() {
		a, err := r.admin.add(context.Background(), name)
		fyne.Do(func() {
			switch {
			case err != nil && a.Host.Name != "":
				r.result.SetText(a.Report()[0] + "\n" + err.Error())
			case err != nil:
				r.result.SetText(err.Error())
			default:
				r.result.SetText(strings.Join(a.Report(), "\n"))
				r.name.SetText("")
			}
			r.revoked = slices.DeleteFunc(r.revoked, func(n string) bool { return n == name })
			r.finish()
		})
	}()
}

// askRemove asks before revoking host name.
func (r *remoteTab) askRemove(name string) {
	r.confirm = dialog.NewConfirm("Remove "+name+"?",
		"Its key is revoked at once: its agents' hooks stop asking this tray, and its open questions end.",
		func(ok bool) {
			if ok {
				r.removeHost(name)
			}
		}, r.win())
	r.confirm.SetConfirmText("Remove")
	r.confirm.Show()
}

// removeHost revokes host name on a goroutine of its own and shows what
// happened.
func (r *remoteTab) removeHost(name string) {
	r.setBusy(true)
	r.result.SetText("Removing " + name + "…")
	go func() {
		h, tidy, err := r.admin.remove(context.Background(), name)
		fyne.Do(func() {
			switch {
			case err != nil:
				r.result.SetText(err.Error())
			case tidy != nil:
				r.result.SetText("Removed " + h.Name + ": its key is revoked and its connection ended. " +
					"The key file is still on the host: " + tidy.Error())
				r.revoked = append(r.revoked, h.Name)
			default:
				r.result.SetText("Removed " + h.Name + ": its key is revoked and its connection ended.")
				r.revoked = append(r.revoked, h.Name)
			}
			r.finish()
		})
	}()
}

// finish ends an add or remove.
func (r *remoteTab) finish() {
	r.setBusy(false)
	if r.done != nil {
		r.done()
	}
}

// setRemote gives the window its Remote hosts tab, when the app serves
// hosts (admin.states set). It runs before the window is first shown.
func (c *connectWindow) setRemote(admin remoteAdmin) {
	if admin.states == nil || admin.add == nil || admin.remove == nil {
		return
	}
	c.remote = newRemoteTab(admin, func() fyne.Window { return c.win })
}

// showRemote shows the window on its Remote hosts tab.
func (c *connectWindow) showRemote() {
	c.Show()
	if c.tabs != nil {
		c.tabs.SelectIndex(1)
	}
}

// hostsChanged shows the hosts' states anew, when the window shows them.
func (c *connectWindow) hostsChanged() {
	if c.remote != nil && c.win != nil && c.win.Content().Visible() && c.tabs.SelectedIndex() == 1 {
		c.remote.refresh()
	}
}
