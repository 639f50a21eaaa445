package ui

import (
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/remote"
)

// fakeHosts stands in for the app's remote hosts: remote.Add and
// remote.Remove are tested over a real sshd (app/remote, app/cli); here
// the window's part.
type fakeHosts struct {
	mu      sync.Mutex
	states  []remote.State
	added   []string
	removed []string
}

func (f *fakeHosts) admin() remoteAdmin {
	return remoteAdmin{
		states: func() []remote.State {
			f.mu.Lock()
			defer f.mu.Unlock()
			return slices.Clone(f.states)
		},
		add: func(_ context.Context, name string) (remote.Added, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.added = append(f.added, name)
			f.states = append(f.states, remote.State{Name: name, State: remote.Connected})
			return remote.Added{Host: remote.Host{Name: name, Dir: "/home/ci/.local/share/asktray/remote"},
				Bins: []string{"/usr/bin/asktray"}, Hooked: []string{"claude-code", "codex"}}, nil
		},
		remove: func(_ context.Context, name string) (remote.Host, error, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.removed = append(f.removed, name)
			f.states = slices.DeleteFunc(f.states, func(s remote.State) bool { return s.Name == name })
			return remote.Host{Name: name}, errors.New("tidy up " + name + ": ssh: connect to host build-01 port 22: No route to host"), nil
		},
	}
}

// rowTexts are the host rows' labels, and whether each has a Remove button.
func rowTexts(r *remoteTab) (texts []string, removable []bool) {
	for _, o := range r.rows.Objects {
		switch row := o.(type) {
		case *widget.Label:
			texts, removable = append(texts, row.Text), append(removable, false)
		case *fyne.Container:
			var text string
			var rm bool
			for _, c := range row.Objects {
				switch w := c.(type) {
				case *widget.Label:
					text = w.Text
				case *widget.Button:
					rm = w.Text == "Remove"
				}
			}
			texts, removable = append(texts, text), append(removable, rm)
		}
	}
	return texts, removable
}

// removeButton is host name's Remove button.
func removeButton(t *testing.T, r *remoteTab, name string) *widget.Button {
	t.Helper()
	for _, o := range r.rows.Objects {
		if row, ok := o.(*fyne.Container); ok {
			var label string
			var btn *widget.Button
			for _, c := range row.Objects {
				switch w := c.(type) {
				case *widget.Label:
					label = w.Text
				case *widget.Button:
					btn = w
				}
			}
			if strings.HasPrefix(label, name+" ") && btn != nil {
				return btn
			}
		}
	}
	t.Fatalf("no Remove button for %s", name)
	return nil
}

// TestConnectWindow_RemoteHosts: the Connect window's Remote hosts tab
// lists each host with its state (connected, reconnecting with ssh's
// complaint), refuses a bad name naming the part without running ssh,
// adds a host and says what set-up did there, and removes one after
// asking: the host shows as key revoked, and what could not be tidied on
// the host is said. A screenshot goes to docs/screenshots/connect-remote.png
// with ASKTRAY_SCREENSHOTS=1.
func TestConnectWindow_RemoteHosts(t *testing.T) {
	a := test.NewTempApp(t)
	useAppTheme(a) // its screenshot in the app's theme
	f := &fakeHosts{states: []remote.State{
		{Name: "build-01", State: remote.Connected},
		{Name: "agent@localhost", State: remote.Down, Error: "Connection refused; retrying in 4s"},
	}}
	c := newConnectWindow(a, "/data", func() (string, string) { return "http://127.0.0.1:7931/mcp", strings.Repeat("cd", 32) })
	c.setRemote(f.admin())
	done := make(chan struct{}, 1)
	c.remote.done = func() { done <- struct{}{} }
	c.showRemote()
	c.win.Resize(fyne.NewSize(760, 560))
	r := c.remote
	texts, rm := rowTexts(r)
	if !slices.Equal(texts, []string{"build-01   connected", "agent@localhost   reconnecting (Connection refused; retrying in 4s)"}) ||
		!slices.Equal(rm, []bool{true, true}) {
		t.Fatalf("rows %q, removable %v", texts, rm)
	}

	test.Type(r.name, "me@-oProxyCommand=x")
	test.Tap(r.add)
	if !strings.Contains(r.result.Text, `the host name "-oProxyCommand=x"`) || len(f.added) != 0 {
		t.Fatalf("a bad name: %q, added %v", r.result.Text, f.added)
	}

	r.name.SetText("ci@build-02:2222")
	test.Tap(r.add)
	waitDone(t, done)
	if !slices.Equal(f.added, []string{"ci@build-02:2222"}) || !strings.Contains(r.result.Text, "Added ci@build-02:2222") ||
		!strings.Contains(r.result.Text, "Set up claude-code's hooks on ci@build-02:2222.") || r.name.Text != "" {
		t.Fatalf("after add: added %v, result %q, entry %q", f.added, r.result.Text, r.name.Text)
	}

	test.Tap(removeButton(t, r, "build-01"))
	if r.confirm == nil || len(f.removed) != 0 {
		t.Fatal("Remove did not ask first")
	}
	r.confirm.Confirm()
	waitDone(t, done)
	texts, rm = rowTexts(r)
	if !slices.Equal(f.removed, []string{"build-01"}) || !slices.Contains(texts, "build-01   key revoked") || rm[slices.Index(texts, "build-01   key revoked")] {
		t.Fatalf("after remove: removed %v, rows %q %v", f.removed, texts, rm)
	}
	if !strings.Contains(r.result.Text, "Removed build-01: its key is revoked") || !strings.Contains(r.result.Text, "No route to host") {
		t.Fatalf("remove said %q", r.result.Text)
	}
	saveConnectShot(t, c, "connect-remote.png") // connected, reconnecting, key revoked
}

// TestConnectWindow_NoHostsNoTab: an app that serves no hosts has no
// Remote hosts tab.
func TestConnectWindow_NoHostsNoTab(t *testing.T) {
	a := test.NewTempApp(t)
	c := newConnectWindow(a, "/data", func() (string, string) { return "", "" })
	c.setRemote(envRemote(app.Env{}))
	c.Show()
	if c.remote != nil || c.tabs != nil {
		t.Fatal("a Remote hosts tab without hosts")
	}
	if _, ok := c.win.Content().(*fyne.Container).Objects[0].(*container.AppTabs); ok {
		t.Fatal("tabs without hosts")
	}
}

// TestTray_ShowsRemoteHosts: the tray menu says how many hosts are
// connected, names each with its state, follows a change of state the
// hosts report, and a host's item opens the Connect window on its tab.
func TestTray_ShowsRemoteHosts(t *testing.T) {
	a := test.NewTempApp(t)
	b := question.NewBroker(question.Config{})
	defer b.Close()
	f := &fakeHosts{states: []remote.State{{Name: "build-01", State: remote.Connected}, {Name: "agent@localhost", State: remote.Connecting}}}
	ad := f.admin()
	var changed func()
	tr := newTray(a, app.Env{Broker: b, RemoteHosts: ad.states, AddRemoteHost: ad.add, RemoveRemoteHost: ad.remove,
		OnRemoteHostsChange: func(fn func()) { changed = fn }})
	tr.install()
	item := func() *fyne.MenuItem {
		for _, it := range tr.menu.Items {
			if strings.HasPrefix(it.Label, "Remote hosts: ") {
				return it
			}
		}
		t.Fatalf("no remote hosts in the menu: %q", labels(tr))
		return nil
	}
	it := item()
	if it.Label != "Remote hosts: 1 of 2 connected" || !slices.Equal(menuLabels(it.ChildMenu), []string{"build-01: connected", "agent@localhost: connecting"}) {
		t.Fatalf("menu item %q %q", it.Label, menuLabels(it.ChildMenu))
	}
	f.mu.Lock()
	f.states[1] = remote.State{Name: "agent@localhost", State: remote.Connected}
	f.mu.Unlock()
	stop := tr.followRemoteHosts()
	changed() // the hosts report a change, on a goroutine of theirs
	deadline := time.Now().Add(10 * time.Second)
	for it := item(); it.Label != "Remote hosts: 2 of 2 connected" || menuLabels(it.ChildMenu)[1] != "agent@localhost: connected"; it = item() {
		if time.Now().After(deadline) {
			t.Fatalf("after the change: %q %q", it.Label, menuLabels(it.ChildMenu))
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if changed != nil {
		t.Fatal("the tray still follows the hosts after stop")
	}
	item().ChildMenu.Items[0].Action()
	if tr.connect.win == nil || tr.connect.tabs.SelectedIndex() != 1 {
		t.Fatal("a host's item did not open the Remote hosts tab")
	}
}

func waitDone(t *testing.T, done chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the add or remove did not finish")
	}
}

// saveConnectShot writes the window's picture to docs/screenshots with
// ASKTRAY_SCREENSHOTS=1, else into a temporary dir.
func saveConnectShot(t *testing.T, c *connectWindow, name string) {
	t.Helper()
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "docs", "screenshots")
	}
	out, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, c.win.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}
