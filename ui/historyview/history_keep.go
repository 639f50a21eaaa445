package historyview

import (
	"context"
	"slices"

	"github.com/asktray/asktray/app/history"
)

// The rows the window keeps loaded while it shows (issue 37 item 9): a
// busy agent's answers each add a row at the top, so without a bound a
// window left open grows with the hours it stays open.
const (
	// historyKeep is how many records the window keeps loaded at most,
	// beyond those within historyMargin of what the list shows.
	historyKeep = 10 * historyPageSize
	// historyMargin is how many records are kept either side of what the
	// list shows, so scrolling a little never waits for the store.
	historyMargin = 2 * historyPageSize
)

// visibleRecs returns the lowest and highest index in h.rows of the
// records the list shows at scroll offset; hi is -1 when it shows none.
func (h *Window) visibleRecs(offset float32) (lo, hi int) {
	if len(h.view) == 0 || h.stride <= 0 {
		return 0, -1
	}
	first := min(max(int(offset/h.stride), 0), len(h.view)-1)
	last := min(max(int((offset+h.list.Size().Height)/h.stride), first), len(h.view)-1)
	lo, hi = len(h.rows), -1
	for _, v := range h.view[first : last+1] {
		lo, hi = min(lo, v.rec), max(hi, v.rec)
	}
	return lo, hi
}

// trim lets go of the loaded records far from what the list shows at
// offset, so that at most h.keep stay loaded besides those within
// historyMargin of it: the oldest first (the next page then starts after
// the last kept, and scrolling down loads them again), then, while the
// person reads far below the top, the newest (h.newer: scrolling back up
// loads them again, and new answers wait in the store until then). A
// selected record let go keeps its details (h.selOut) and is selected
// again when its row comes back. It reports whether it let any go; the
// caller regroups. It runs on the Fyne goroutine.
func (h *Window) trim(offset float32) bool {
	if h.keep <= 0 || len(h.rows) <= h.keep {
		return false
	}
	lo, hi := h.visibleRecs(offset)
	if hi < 0 {
		lo, hi = 0, 0
	}
	cut := false
	if end := max(hi+historyMargin+1, h.keep); end < len(h.rows) {
		h.forget(h.rows[end:])
		h.rows = slices.Delete(h.rows, end, len(h.rows)) // zeroes the tail: the records can go
		h.next, h.loadingMore = history.CursorAt(h.rows[end-1]), false
		delete(h.holes, h.rows[end-1].Question.ID) // its hidden members now follow the cursor
		cut = true
	}
	if n := min(len(h.rows)-h.keep, lo-historyMargin); n > 0 {
		h.forget(h.rows[:n])
		h.rows = slices.Delete(h.rows, 0, n)
		h.newer, h.loadingNewer, h.newerCursor = true, false, ""
		cut = true
	}
	if len(h.rows) > h.keep {
		if cut {
			h.regroup() // holeGroups reads the groups of the rows left
		}
		if h.holeGroups() {
			cut = true
		}
	}
	return cut
}

// forget drops what the window keeps about recs, which it lets go.
func (h *Window) forget(recs []history.Record) {
	for _, r := range recs {
		delete(h.keys, r.Question.ID)
		delete(h.holes, r.Question.ID)
		if r.Question.ID == h.selectedID {
			h.selOut = true
		}
	}
}

// groupLoads is how many records a group's head may have loaded by itself
// (groupPrefetch), a page short of what trim keeps, so a head never loads
// what trim lets go at once.
func (h *Window) groupLoads() int {
	if h.keep <= 0 {
		return groupPrefetch
	}
	return min(groupPrefetch, h.keep-historyPageSize)
}

// skipNewer reports whether rec sorts above the loaded rows while newer
// records are let go (h.newer): it is left to loadNewer, and counted so
// that a loadNewer read before it was stored does not end h.newer.
func (h *Window) skipNewer(rec history.Record) bool {
	if !h.newer || len(h.rows) == 0 || newestFirst(rec, h.rows[0]) >= 0 {
		return false
	}
	h.newerSkips++
	if rec.Question.ID == h.selectedID {
		h.detail.show(rec)
	}
	return true
}

// loadNewer loads the page of records just newer than the loaded rows,
// which trim let go, unless one is on its way; what the person reads stays
// where it is. It runs on the Fyne goroutine.
func (h *Window) loadNewer() {
	if !h.newer || h.loadingNewer || len(h.rows) == 0 {
		return
	}
	h.loadingNewer = true
	gen, f, skips := h.gen, h.filter(), h.newerSkips
	f.Limit, f.Cursor, f.Reverse = historyPageSize, history.CursorAt(h.rows[0]), true
	h.newerCursor = f.Cursor
	h.query(func(ctx context.Context) func() {
		p, err := h.store.List(ctx, f)
		return func() {
			if gen != h.gen || f.Cursor != h.newerCursor {
				return // reloaded, or trim let the top go meanwhile
			}
			h.loadingNewer, h.newerCursor = false, ""
			if err != nil {
				h.fail("load newer history", err)
				return
			}
			a := h.topAnchor()
			recs := p.Records // oldest first
			slices.Reverse(recs)
			h.rows = append(recs, h.rows...)
			h.newer = p.Next != "" || h.newerSkips != skips
			h.relist(a)
		}
	})
}

// topAnchor is anchor, or at the list's top its first row, so rows added
// above do not move what shows.
func (h *Window) topAnchor() listAnchor {
	if a := h.anchor(); a.id != "" || len(h.view) == 0 {
		return a
	}
	v := h.view[0]
	return listAnchor{id: h.rows[v.rec].Question.ID, head: v.group != nil}
}

// anchored returns the scroll offset that keeps a where it was, given
// offset before the rows changed.
func (h *Window) anchored(a listAnchor, offset float32) float32 {
	if a.id == "" {
		return offset
	}
	if i := h.viewIndex(a.id, a.head); i >= 0 {
		return float32(i)*h.stride + a.delta
	}
	return max(offset-h.stride, 0) // the row above the top went
}

// hole is a run of a closed group's members that trim let go from the
// middle of the loaded rows (holeGroups): how many, and the creation of
// the oldest, so regroup still counts them and chains the group across.
type hole struct {
	n      int
	oldest history.Record
}

// holeGroups lets go of the members a closed group hides, between its
// head and its last loaded member, where they follow one another in
// h.rows: one agent's same command under a standing rule is one row over
// thousands of records, and the rows under it come after all of them, so
// the cuts at the ends could let none go. The row above each run keeps a
// hole; opening the group reads them again (fillHoles). It reports
// whether it let any go; it runs on the Fyne goroutine.
func (h *Window) holeGroups() bool {
	type span struct{ a, b int } // h.rows[a:b] go, all one closed group's
	var spans []span
	for _, v := range h.view {
		g := v.group
		if g == nil || g.open || len(g.members) < 3 {
			continue
		}
		kept := func(m int) bool { return h.rows[g.members[m]].Question.ID == h.selectedID } // the selection stays loaded
		for j := 1; j < len(g.members)-1; {
			if kept(j) {
				j++
				continue
			}
			k := j
			for k+1 < len(g.members)-1 && g.members[k+1] == g.members[k]+1 && !kept(k+1) {
				k++
			}
			if g.members[j] == g.members[j-1]+1 { // the row above is the group's: it keeps the hole
				spans = append(spans, span{g.members[j], g.members[k] + 1})
			}
			j = k + 1
		}
	}
	if len(spans) == 0 {
		return false
	}
	if h.holes == nil {
		h.holes = map[string]hole{}
	}
	slices.SortFunc(spans, func(x, y span) int { return y.a - x.a }) // from the bottom up: indexes stay good
	for _, s := range spans {
		above := h.rows[s.a-1].Question.ID
		hl := h.holes[above]
		for _, r := range h.rows[s.a:s.b] {
			hl.n++
			hl.oldest = r
			if in, ok := h.holes[r.Question.ID]; ok {
				hl.n += in.n
				hl.oldest = in.oldest
				delete(h.holes, r.Question.ID)
			}
			delete(h.keys, r.Question.ID)
			if r.Question.ID == h.selectedID {
				h.selOut = true
			}
		}
		h.holes[above] = hl
		h.rows = slices.Delete(h.rows, s.a, s.b)
	}
	return true
}

// bridge counts the hole below rec, if any, in run r, and lets r's next
// loaded member join it however long the hole lasted (its oldest member
// was within groupGap of that one).
func (h *Window) bridge(r *groupRun, rec history.Record) {
	if hl, ok := h.holes[rec.Question.ID]; ok {
		r.hidden += hl.n
		r.last = hl.oldest.Question.Created
	}
}

// inHole reports whether a record that sorts at pos falls in a hole: it
// is one of a closed group's members let go (or was asked among them),
// and shows when the group opens.
func (h *Window) inHole(pos int) bool {
	if pos <= 0 || pos > len(h.rows) {
		return false
	}
	_, ok := h.holes[h.rows[pos-1].Question.ID]
	return ok
}

// fillHoles reads again the members trim let go from group g, which the
// person opens: each hole's records from the store, after the row above
// it, merged back in where they sort. It runs on the Fyne goroutine.
func (h *Window) fillHoles(g *rowGroup) {
	gen, f := h.gen, h.filter()
	for _, m := range g.members {
		top := h.rows[m]
		hl, ok := h.holes[top.Question.ID]
		if !ok {
			continue
		}
		delete(h.holes, top.Question.ID)
		h.query(func(ctx context.Context) func() {
			var recs []history.Record
			var err error
			g := f
			g.Cursor = history.CursorAt(top)
			for len(recs) < hl.n && err == nil {
				var p history.Page
				g.Limit = min(hl.n-len(recs), history.MaxLimit)
				if p, err = h.store.List(ctx, g); err == nil {
					recs = append(recs, p.Records...)
					if p.Next == "" {
						break
					}
					g.Cursor = p.Next
				}
			}
			return func() {
				if gen != h.gen {
					return
				}
				if err != nil {
					h.fail("load a group's decisions", err)
					return
				}
				h.mergeIn(recs)
			}
		})
	}
}

// mergeIn adds recs to the loaded rows where they sort, those not loaded
// already, keeping what shows.
func (h *Window) mergeIn(recs []history.Record) {
	a := h.anchor()
	for _, r := range recs {
		pos, found := slices.BinarySearchFunc(h.rows, r, newestFirst)
		if !found && (pos < len(h.rows) || h.next == "") {
			h.rows = slices.Insert(h.rows, pos, r)
		}
	}
	h.relist(a)
}
