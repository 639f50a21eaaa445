package historyview

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
)

// Handle applies a broker event: a question asked, ended or annotated is
// noted, and the questions noted within h.coalesce are looked up in the
// store together and inserted, updated or removed, keeping the selection
// and what the person is reading, with one count of the verdicts per
// batch; so a busy agent costs a few queries a second, not two per event.
// A hidden window only notes that it is stale. It runs on the Fyne
// goroutine: the tray wraps broker callbacks in fyne.Do.
func (h *Window) Handle(ev question.Event) {
	if ev.Type != question.EventAsked && ev.Type != question.EventEnded && ev.Type != question.EventAnnotated {
		return
	}
	if !h.visible {
		h.stale = true
		return
	}
	if ev.Type == question.EventAsked && ev.Question.Client.Name != "" && !slices.Contains(h.clients, ev.Question.Client.Name) {
		h.loadClients()
	}
	if ev.Type == question.EventAsked && ev.Question.Host != "" && !slices.Contains(h.hosts, ev.Question.Host) {
		h.loadHosts()
	}
	if h.coalesce < 0 {
		h.refreshRecord(ev.Question)
		h.loadCounts()
		return
	}
	if h.due == nil {
		h.due = map[string]question.Question{}
	}
	h.due[ev.Question.ID] = ev.Question
	if h.batching {
		return
	}
	h.batching = true
	h.inflight++
	time.AfterFunc(h.coalesce, func() {
		h.do(func() {
			h.inflight--
			h.batching = false
			h.applyDue()
		})
	})
}

// applyDue looks up the questions noted since the last batch: one query
// over the span of their creation times when that span holds no more than
// a page, else one query each.
func (h *Window) applyDue() {
	due := h.due
	h.due = nil
	if len(due) == 0 {
		return
	}
	if !h.visible {
		h.stale = true
		return
	}
	qs := slices.SortedFunc(maps.Values(due), func(a, b question.Question) int { return a.Created.Compare(b.Created) })
	if len(qs) == 1 || h.reloading {
		for _, q := range qs {
			h.refreshRecord(q)
		}
		h.loadCounts()
		return
	}
	gen, f := h.gen, h.filter()
	until := qs[len(qs)-1].Created.Add(time.Nanosecond)
	if f.Until.IsZero() || until.Before(f.Until) {
		f.Until = until
	}
	f.Since, f.Limit = later(f.Since, qs[0].Created), history.MaxLimit
	h.query(func(ctx context.Context) func() {
		p, err := h.store.List(ctx, f)
		return func() {
			switch {
			case gen != h.gen:
				// a reload brings them
			case err != nil:
				h.fail("load questions", err)
			case p.Next != "":
				for _, q := range qs { // the span holds more than a page: one at a time
					h.refreshRecord(q)
				}
			default:
				h.applyBatch(qs, p.Records)
			}
		}
	})
	h.loadCounts()
}

// applyBatch shows each of qs as recs has it, or drops its row when recs
// lacks it (it no longer matches the filter): rows updated in place, new
// rows merged in where they sort, then one refresh of the list, the
// selection and the status, however many changed.
func (h *Window) applyBatch(qs []question.Question, recs []history.Record) {
	byID := make(map[string]history.Record, len(recs))
	for _, r := range recs {
		byID[r.Question.ID] = r
	}
	a := h.anchor()
	changed := false
	for _, q := range qs {
		r, ok := byID[q.ID]
		i := h.indexOf(q.ID)
		switch {
		case ok && i >= 0:
			h.rows[i] = r
			if q.ID == h.selectedID {
				h.detail.show(r)
			}
			changed = true // a decision may join or leave a group
		case ok:
			pos, _ := slices.BinarySearchFunc(h.rows, r, newestFirst)
			if (pos == len(h.rows) && h.next != "") || h.skipNewer(r) || h.inHole(pos) {
				continue // a later page brings it, or a newer one
			}
			h.rows = slices.Insert(h.rows, pos, r)
			changed = true
		case i >= 0:
			h.rows = slices.Delete(h.rows, i, i+1)
			changed = true
		}
	}
	if changed {
		h.relist(a)
	}
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
