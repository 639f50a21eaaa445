package historyview

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// historyClearDays are the ages "Clear older than…" offers.
var historyClearDays = []int{7, 30, 90, 365}

// showExport asks where to save the questions the filter selects; the file
// name's extension (.csv or .json) picks the format.
func (h *Window) showExport() {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			h.showError(fmt.Errorf("choose export file: %w", err))
			return
		}
		if wc != nil {
			h.export(wc, wc.URI().Name())
		}
	}, h.win)
	d.SetFileName("asktray-history-" + h.now().Format("2006-01-02") + ".csv")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".json"}))
	d.Resize(fyne.NewSize(800, 560))
	h.lastDialog = d
	d.Show()
}

// export writes the records the current filter selects to wc (CSV if name
// ends in .csv, JSON otherwise), closes it and says how many it wrote.
func (h *Window) export(wc io.WriteCloser, name string) {
	format := history.FormatJSON
	if strings.EqualFold(filepath.Ext(name), ".csv") {
		format = history.FormatCSV
	}
	f := h.filter()
	h.exportBtn.Disable()
	h.query(func(context.Context) func() {
		n, err := history.Export(context.Background(), h.store, f, format, wc)
		if cerr := wc.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("export history: close %s: %w", name, cerr)
		}
		return func() {
			h.exportBtn.Enable()
			if err != nil {
				h.showError(err)
				return
			}
			h.showInfo("Export finished", fmt.Sprintf("Saved %s to %s.", histPlural(n, "question"), filepath.Base(name)))
		}
	})
}

// confirmDelete asks before deleting rec from the history. A pending
// question cannot be deleted: the broker records its outcome in the store
// when it ends, and would fail to.
func (h *Window) confirmDelete(rec history.Record) {
	if rec.Question.ID == "" || rec.Result == nil {
		return
	}
	msg := "Delete this question and its answer from the history? This cannot be undone."
	h.confirm("Delete question?", msg, "Delete", func() {
		id := rec.Question.ID
		h.query(func(ctx context.Context) func() {
			err := h.store.Delete(ctx, id)
			return func() {
				if err != nil {
					h.showError(err)
					return
				}
				h.remove(id)
				h.loadCounts()
			}
		})
	})
}

// showClear asks how old the questions to clear must be.
func (h *Window) showClear() {
	opts := make([]string, len(historyClearDays))
	for i, n := range historyClearDays {
		opts[i] = fmt.Sprintf("%d days", n)
	}
	sel := widget.NewSelect(opts, nil)
	sel.SetSelectedIndex(2)
	msg := widget.NewLabel("Delete finished questions asked before this. Pending questions are always kept.")
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Clear history", "Continue", "Cancel", container.NewVBox(msg, sel), func(ok bool) {
		if ok {
			h.clearOlderThan(historyClearDays[max(sel.SelectedIndex(), 0)])
		}
	}, h.win)
	d.Resize(fyne.NewSize(420, 0))
	h.lastConfirm, h.lastDialog = d, d
	d.Show()
}

// clearOlderThan counts the finished questions older than days and, once
// the person confirms, deletes them.
func (h *Window) clearOlderThan(days int) {
	cutoff := h.now().AddDate(0, 0, -days)
	h.query(func(ctx context.Context) func() {
		counts, err := h.store.Count(ctx, history.Filter{Until: cutoff})
		return func() {
			if err != nil {
				h.showError(err)
				return
			}
			n := 0
			for s, c := range counts {
				if s != question.StatePending {
					n += c
				}
			}
			if n == 0 {
				h.showInfo("Nothing to clear", fmt.Sprintf("No finished questions are older than %d days.", days))
				return
			}
			msg := fmt.Sprintf("Delete %s asked before %s? Pending questions are kept. This cannot be undone.",
				histPlural(n, "finished question"), cutoff.Local().Format("2 Jan 2006"))
			h.confirm("Clear history?", msg, "Delete", func() { h.deleteOlderThan(cutoff) })
		}
	})
}

// deleteOlderThan deletes the finished questions asked before cutoff and reloads.
func (h *Window) deleteOlderThan(cutoff time.Time) {
	h.query(func(ctx context.Context) func() {
		n, err := h.store.DeleteOlderThan(ctx, cutoff)
		return func() {
			if err != nil {
				h.showError(err)
				return
			}
			h.log.Info("history cleared", "before", cutoff, "deleted", n)
			h.reload()
			h.loadClients()
			h.loadHosts()
			h.showInfo("History cleared", "Deleted "+histPlural(n, "question")+".")
		}
	})
}

// confirm shows a confirmation with a dangerous action button.
func (h *Window) confirm(title, msg, action string, yes func()) {
	d := dialog.NewConfirm(title, msg, func(ok bool) {
		if ok {
			yes()
		}
	}, h.win)
	d.SetConfirmText(action)
	d.SetConfirmImportance(widget.DangerImportance)
	h.lastConfirm, h.lastDialog = d, d
	d.Show()
}

// showInfo shows a message over the window.
func (h *Window) showInfo(title, msg string) {
	d := dialog.NewInformation(title, msg, h.win)
	h.lastDialog = d
	d.Show()
}

// showError logs err and shows it over the window.
func (h *Window) showError(err error) {
	h.log.Error("history window", "err", err)
	d := dialog.NewError(err, h.win)
	h.lastDialog = d
	d.Show()
}

// histPlural says "1 question" or "12 questions".
func histPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return histThousands(n) + " " + noun + "s"
}
