package historyview

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// query runs fn on a new goroutine and then the func it returns through
// h.do, on the Fyne goroutine. h.inflight counts it until then.
func (h *Window) query(fn func(ctx context.Context) (apply func())) {
	h.inflight++
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), historyQueryLimit)
		apply := fn(ctx)
		cancel()
		h.do(func() {
			h.inflight--
			apply()
		})
	}()
}

// filter returns the filter the widgets describe, without paging.
func (h *Window) filter() history.Filter {
	f := history.Filter{Search: strings.TrimSpace(h.search.Text)}
	if i := h.outcomeIdx; i > 0 && i <= len(historyFilters) {
		f.Verdicts = historyFilters[i-1].Verdicts
	}
	if i := h.clientSel.SelectedIndex(); i > 0 && i <= len(h.clients) {
		f.Client = h.clients[i-1]
	}
	f.Host = h.hostFilter()
	if i := h.kindSel.SelectedIndex(); i > 0 && i <= len(question.Kinds) {
		f.Kind = question.Kinds[i-1]
	}
	now := h.now()
	switch h.rangeSel.SelectedIndex() {
	case 1:
		y, m, d := now.Date()
		f.Since = time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	case 2:
		f.Since = now.AddDate(0, 0, -7)
	case 3:
		f.Since = now.AddDate(0, 0, -30)
	}
	return f
}

// reload loads the first page and the counts for the current filter,
// dropping whatever older queries still bring back.
func (h *Window) reload() {
	h.gen++
	gen, f := h.gen, h.filter()
	h.loadingMore, h.reloading = false, true
	h.newer, h.loadingNewer, h.newerCursor, h.selOut, h.holes = false, false, "", false, nil
	f.Limit = historyPageSize
	h.query(func(ctx context.Context) func() {
		p, err := h.store.List(ctx, f)
		return func() {
			if gen != h.gen {
				return
			}
			h.reloading = false
			// The page may have been read before these questions were stored.
			defer func() {
				qs := h.afterReload
				h.afterReload = nil
				for _, q := range qs {
					h.refreshRecord(q)
				}
			}()
			if err != nil {
				h.fail("load history", err)
				return
			}
			h.rows, h.next, h.keys = p.Records, p.Next, nil
			h.regroup()
			h.list.Refresh()
			h.list.ScrollToTop()
			h.keepSelection(0)
			h.updateStatus()
		}
	})
	h.loadCounts()
}

// loadMore loads the page after the loaded rows, unless one is on its way.
func (h *Window) loadMore() {
	if h.next == "" || h.loadingMore {
		return
	}
	h.loadingMore = true
	gen, f := h.gen, h.filter()
	f.Limit, f.Cursor = historyPageSize, h.next
	h.query(func(ctx context.Context) func() {
		p, err := h.store.List(ctx, f)
		return func() {
			if gen != h.gen || f.Cursor != h.next {
				return
			}
			h.loadingMore = false
			if err != nil {
				h.fail("load more history", err)
				return
			}
			a := h.anchor()
			h.rows, h.next = append(h.rows, p.Records...), p.Next
			h.relist(a) // older rows go below: nothing on show moves
		}
	})
}

// loadCounts refreshes the counts, per verdict, in the outcome filter.
func (h *Window) loadCounts() {
	h.countGen++
	gen, f := h.countGen, h.filter()
	h.query(func(ctx context.Context) func() {
		c, err := h.store.CountVerdicts(ctx, f)
		return func() {
			if gen != h.countGen {
				return
			}
			if err != nil {
				h.fail("count history", err)
				return
			}
			h.counts = c
			h.setOutcomeOptions()
			h.updateStatus()
		}
	})
}

// loadClients refreshes the client filter's choices.
func (h *Window) loadClients() {
	h.query(func(ctx context.Context) func() {
		names, err := h.store.Clients(ctx)
		return func() {
			if err != nil {
				h.fail("list clients", err)
				return
			}
			cur := h.clientSel.Selected
			h.clients = names
			h.quiet = true
			h.clientSel.SetOptions(append([]string{"All clients"}, names...))
			h.clientSel.SetSelected(cur)
			gone := h.clientSel.SelectedIndex() < 0
			if gone {
				h.clientSel.SetSelectedIndex(0)
			}
			h.quiet = false
			if gone {
				h.reload() // the filtered client has no questions left
			}
		}
	})
}

// outcomeOptions labels the outcome filter's choices with their counts.
func (h *Window) outcomeOptions() []string {
	label := func(name string, n int) string {
		if h.counts == nil {
			return name
		}
		return fmt.Sprintf("%s (%s)", name, histThousands(n))
	}
	total := 0
	for _, n := range h.counts {
		total += n
	}
	opts := []string{label("All outcomes", total)}
	for _, f := range historyFilters {
		opts = append(opts, label(f.Label, h.filterCount(f)))
	}
	return opts
}

// filterCount is how many records the counts give the choice f.
func (h *Window) filterCount(f present.VerdictFilter) int {
	n := 0
	for _, v := range f.Verdicts {
		n += h.counts[v]
	}
	return n
}

// setOutcomeOptions relabels the outcome filter, keeping its choice.
func (h *Window) setOutcomeOptions() {
	opts := h.outcomeOptions()
	h.outcomeSel.Options = opts
	h.outcomeSel.Selected = opts[h.outcomeIdx]
	h.outcomeSel.Refresh()
}

// updateStatus says how many records show and how many match.
func (h *Window) updateStatus() {
	h.empty.Hidden = len(h.rows) > 0
	h.empty.Refresh()
	total := len(h.rows)
	if h.counts != nil {
		total = 0
		for v, n := range h.counts {
			if h.outcomeIdx == 0 || slices.Contains(historyFilters[h.outcomeIdx-1].Verdicts, v) {
				total += n
			}
		}
	}
	switch {
	case total == 1:
		h.status.SetText("1 question")
	case len(h.rows) < total:
		h.status.SetText(fmt.Sprintf("Showing %s of %s questions · scroll for more", histThousands(len(h.rows)), histThousands(total)))
	default:
		h.status.SetText(histThousands(total) + " questions")
	}
}

// fail logs a failed store call and says so in the status line.
func (h *Window) fail(what string, err error) {
	h.log.Error("history window: "+what, "err", err)
	h.status.SetText("Could not " + what + ": " + err.Error())
}

// refreshRecord asks the store whether q matches the filter, with its
// full-text search, and shows the answer. While the first page is loading
// it waits for it, since the page may be older than q's change.
func (h *Window) refreshRecord(q question.Question) {
	if h.reloading {
		h.afterReload = append(h.afterReload, q)
		return
	}
	gen, f := h.gen, h.filter()
	since, until := q.Created, q.Created.Add(time.Nanosecond)
	if f.Since.After(since) {
		since = f.Since
	}
	if !f.Until.IsZero() && f.Until.Before(until) {
		until = f.Until
	}
	f.Since, f.Until, f.Limit = since, until, history.MaxLimit
	h.query(func(ctx context.Context) func() {
		p, err := h.store.List(ctx, f)
		return func() {
			if gen != h.gen {
				return // a reload brings it
			}
			if err != nil {
				h.fail("load question", err)
				return
			}
			for _, rec := range p.Records {
				if rec.Question.ID == q.ID {
					h.upsert(rec)
					return
				}
			}
			h.remove(q.ID)
		}
	})
}

// indexOf returns the row of question id, or -1.
func (h *Window) indexOf(id string) int {
	return slices.IndexFunc(h.rows, func(r history.Record) bool { return r.Question.ID == id })
}

// upsert updates rec's row, or inserts it where it sorts if that is within
// the loaded rows, without moving what the person sees.
func (h *Window) upsert(rec history.Record) {
	a := h.anchor()
	if i := h.indexOf(rec.Question.ID); i >= 0 {
		h.rows[i] = rec
		if rec.Question.ID == h.selectedID {
			h.detail.show(rec)
		}
		h.relist(a) // a decision may join or leave a group
		return
	}
	pos, _ := slices.BinarySearchFunc(h.rows, rec, newestFirst)
	if (pos == len(h.rows) && h.next != "") || h.skipNewer(rec) || h.inHole(pos) {
		return // a later page brings it, or a newer one
	}
	h.rows = slices.Insert(h.rows, pos, rec)
	h.relist(a)
}

// newestFirst orders records as the list shows them: newest first, then by id.
func newestFirst(a, b history.Record) int {
	return cmp.Or(b.Question.Created.Compare(a.Question.Created), strings.Compare(b.Question.ID, a.Question.ID))
}

// remove drops question id's row, if it is loaded.
func (h *Window) remove(id string) {
	i := h.indexOf(id)
	if id == h.selectedID && h.selOut {
		h.selOut = false // gone from the store too
		if i < 0 {
			h.keepSelection(h.list.GetScrollOffset())
		}
	}
	if i < 0 {
		return
	}
	a := h.anchor()
	h.rows = slices.Delete(h.rows, i, i+1)
	h.relist(a)
}

// keepSelection selects the selected question's row again after rows moved
// (or clears the details if it is gone; if trim let it go, its details
// stay until its row is back) and scrolls back to offset.
func (h *Window) keepSelection(offset float32) {
	h.quiet = true
	defer func() { h.quiet = false }()
	i := -1
	if h.selectedID != "" {
		i = h.viewIndex(h.selectedID, h.selHead)
	}
	switch {
	case i < 0 && h.selOut:
		h.list.UnselectAll()
		h.selIdx = -1
	case i < 0:
		h.list.UnselectAll()
		h.selIdx, h.selectedID, h.selHead = -1, "", false
		h.detail.clear()
	case i != h.selIdx:
		h.list.Select(i)
	}
	if i >= 0 {
		h.selOut = false
		h.selHead = h.view[i].group != nil
		if g := h.view[i].group; g != nil {
			h.detail.showGroup(g.size(), g.open)
		}
	}
	h.list.ScrollToOffset(offset)
}

// histThousands formats n with thin separators: 12,345.
func histThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
