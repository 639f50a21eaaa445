package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/settings"
)

// agentWaits is the Settings window's "Wait per agent" list
// (blocking_windows): a row per agent, its name and how long its calls wait
// in words, with Remove, and Add agent under them. The first row whose name
// is part of the asking agent's wins, as the file's order does. Its methods
// run on the Fyne goroutine.
type agentWaits struct {
	obj  fyne.CanvasObject // box, then the Add agent button
	box  *fyne.Container   // the rows
	rows []*waitRow
	add  *widget.Button
}

// waitRow is one agent's row.
type waitRow struct {
	name, wait *widget.Entry
	remove     *widget.Button
	obj        fyne.CanvasObject
}

func newAgentWaits() *agentWaits {
	w := &agentWaits{box: container.NewVBox()}
	w.add = widget.NewButtonWithIcon("Add agent", theme.ContentAddIcon(), func() { w.addRow("", "") })
	w.obj = container.NewVBox(w.box, container.NewHBox(w.add))
	return w
}

// view is the list with its Add agent button.
func (w *agentWaits) view() fyne.CanvasObject { return w.obj }

// load shows ws, one row each.
func (w *agentWaits) load(ws []settings.BlockingWindow) {
	w.rows = nil
	w.box.RemoveAll()
	for _, b := range ws {
		w.addRow(b.Match, amountWords(b.Seconds, time.Second))
	}
}

// addRow adds a row with name and wait.
func (w *agentWaits) addRow(name, wait string) {
	r := &waitRow{name: widget.NewEntry(), wait: widget.NewEntry()}
	r.name.SetPlaceHolder("agent, e.g. cursor")
	r.name.SetText(name)
	r.wait.SetPlaceHolder("e.g. 4 min")
	r.wait.SetText(wait)
	r.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { w.removeRow(r) })
	r.obj = container.NewBorder(nil, nil, nil, r.remove, container.NewGridWithColumns(2, r.name, r.wait))
	w.rows = append(w.rows, r)
	w.box.Add(r.obj)
}

// removeRow takes r out of the list.
func (w *agentWaits) removeRow(r *waitRow) {
	for i, x := range w.rows {
		if x == r {
			w.rows = append(w.rows[:i], w.rows[i+1:]...)
			break
		}
	}
	w.box.Remove(r.obj)
}

// parse reads the rows in order, leaving out rows with neither a name nor
// a time; an error names the row and what is missing.
func (w *agentWaits) parse() ([]settings.BlockingWindow, error) {
	var out []settings.BlockingWindow
	for i, r := range w.rows {
		name, wait := strings.TrimSpace(r.name.Text), strings.TrimSpace(r.wait.Text)
		switch {
		case name == "" && wait == "":
			continue
		case name == "":
			return nil, fmt.Errorf("Wait per agent, row %d: write the agent's name (a part of it, such as cursor)", i+1) //nolint:staticcheck // shown as is, naming the field as labelled
		case wait == "":
			return nil, fmt.Errorf("Wait per agent, row %d (%s): write how long, such as 4 min", i+1, name) //nolint:staticcheck // as above
		}
		n, err := parseAmount(wait, time.Second)
		if err != nil {
			return nil, fmt.Errorf("Wait per agent, row %d (%s): %w", i+1, name, err) //nolint:staticcheck // as above
		}
		out = append(out, settings.BlockingWindow{Match: name, Seconds: n})
	}
	return out, nil
}

// amountWords writes n of unit as a time in words that parseAmount reads
// back: "10 min", "1 h 30 min", "4 min 30 s", "55 s", "500 ms".
func amountWords(n int, unit time.Duration) string {
	d := time.Duration(n) * unit
	if d <= 0 || d%time.Second != 0 {
		return fmt.Sprintf("%d ms", d/time.Millisecond)
	}
	var parts []string
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"}} {
		if q := d / u.d; q > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", q, u.name))
			d -= q * u.d
		}
	}
	return strings.Join(parts, " ")
}
