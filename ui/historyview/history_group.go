package historyview

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// groupGap is how far apart two decisions of one rule on the same request
// may be and still share a row: a standing rule that allows "npm test" 300
// times in ten minutes is one row, "allowed by rule r1 · 300 times,
// 10:02–10:14", which the person can open.
const groupGap = 5 * time.Minute

// groupPrefetch is how many records a group's head may load by itself: a
// group whose oldest loaded member is near the end of what is loaded
// loads the next page when its head shows (else a page of one rule's
// decisions would be one row, and nothing left to scroll to load more),
// up to this many; past it, the head says "5,000+ times".
const groupPrefetch = 10_000

// viewRow is one row of the list: a record of h.rows (rec), or the head
// of a group of identical rule decisions that stands for its members.
type viewRow struct {
	rec   int       // index in h.rows; a group's head shows its newest member
	group *rowGroup // non-nil for a group's head
}

// rowGroup is a run of records a rule decided alike (groupKey), newest
// first, each within groupGap of the next.
type rowGroup struct {
	members []int // indexes in h.rows, newest first
	open    bool  // its members show under its head
	hidden  int   // members trim let go while it was closed (holes)
}

// size is how many decisions g holds, loaded or not.
func (g *rowGroup) size() int { return len(g.members) + g.hidden }

// groupKey is what makes rule decisions identical: the same agent (and
// host), rule, outcome and request (present.LineName: the command and its
// directory, or the header); "" for a record no rule decided. Keys are
// kept by question id (a decided record does not change), so the list is
// regrouped without reading each record's input again.
func (h *Window) groupKey(rec history.Record) string {
	r := rec.Result
	if r == nil || r.DecidedBy != question.ByRule || r.RuleID == "" {
		return ""
	}
	if k, ok := h.keys[rec.Question.ID]; ok {
		return k
	}
	q := rec.Question
	k := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s", q.Client.Name, q.Host, r.RuleID, r.Outcome, present.LineName(&q, "", 300))
	if h.keys == nil {
		h.keys = map[string]string{}
	}
	h.keys[q.ID] = k
	return k
}

// groupRun is a group being gathered by regroup: its newest record, the
// creation of its oldest so far, and the group once it has two.
type groupRun struct {
	head   int
	last   time.Time
	g      *rowGroup
	hidden int // members let go below its records (holes)
}

// regroup rebuilds the list's rows from h.rows: a record no rule decided
// is its own row; records of one groupKey within groupGap of each other
// become one head, followed by its members while it is open (a group
// stays open while any record it held when opened is in it). One pass,
// newest first, over buffers kept between calls; it runs on the Fyne
// goroutine.
func (h *Window) regroup() {
	h.view = h.view[:0]
	if !h.grouping {
		for i := range h.rows {
			h.view = append(h.view, viewRow{rec: i})
		}
		return
	}
	if h.runs == nil {
		h.runs = map[string]int{}
	}
	clear(h.runs)
	runs := h.runBuf[:0]
	groupOf := slices.Grow(h.groupOf[:0], len(h.rows))[:len(h.rows)]
	clear(groupOf)
	for i, rec := range h.rows {
		k := h.groupKey(rec)
		if k == "" {
			continue
		}
		created := rec.Question.Created
		if ri, ok := h.runs[k]; ok && runs[ri].last.Sub(created) <= groupGap {
			r := &runs[ri]
			if r.g == nil {
				r.g = &rowGroup{members: []int{r.head}}
				groupOf[r.head] = r.g
			}
			r.g.members = append(r.g.members, i)
			groupOf[i], r.last = r.g, created
			h.bridge(r, rec)
			continue
		}
		h.runs[k] = len(runs)
		runs = append(runs, groupRun{head: i, last: created})
		h.bridge(&runs[len(runs)-1], rec)
	}
	for i := range runs {
		r := &runs[i]
		if r.g == nil && r.hidden > 0 { // its loaded members went, its hidden ones stay
			r.g = &rowGroup{members: []int{r.head}}
			groupOf[r.head] = r.g
		}
		if r.g != nil {
			r.g.hidden = r.hidden
		}
	}
	h.runBuf, h.groupOf = runs, groupOf
	for i := range h.rows {
		g := groupOf[i]
		switch {
		case g == nil:
			h.view = append(h.view, viewRow{rec: i})
		case g.members[0] == i:
			g.open = len(h.opened) > 0 && slices.ContainsFunc(g.members, func(m int) bool { return h.opened[h.rows[m].Question.ID] })
			h.view = append(h.view, viewRow{rec: i, group: g})
			if g.open {
				for _, m := range g.members {
					h.view = append(h.view, viewRow{rec: m})
				}
			}
		}
	}
}

// toggleGroup opens or closes group g: opening remembers its members, so
// it stays open as new decisions join it, and reads again those trim let
// go (fillHoles).
func (h *Window) toggleGroup(g *rowGroup) {
	if h.opened == nil {
		h.opened = map[string]bool{}
	}
	if !g.open && g.hidden > 0 {
		h.fillHoles(g)
	}
	for _, m := range g.members {
		id := h.rows[m].Question.ID
		if g.open {
			delete(h.opened, id)
		} else {
			h.opened[id] = true
		}
	}
}

// viewIndex returns the list row that shows record id: its own row (in an
// open group, a member's), else the head of the group that holds it; head
// asks for the group's head first. -1 when id is not loaded.
func (h *Window) viewIndex(id string, head bool) int {
	headAt, rowAt := -1, -1
	for vi, v := range h.view {
		switch {
		case v.group != nil:
			if headAt < 0 && slices.ContainsFunc(v.group.members, func(m int) bool { return h.rows[m].Question.ID == id }) {
				headAt = vi
			}
		case rowAt < 0 && h.rows[v.rec].Question.ID == id:
			rowAt = vi
		}
	}
	if (head && headAt >= 0) || rowAt < 0 {
		return headAt
	}
	return rowAt
}

// groupLine says a group's head: by which rule, "allowed by rule r1",
// and how often and when, "300 times, 10:02–10:14" (local times of its
// oldest and newest member, with the date when not today; "300+ times"
// when more is to load and its oldest is the last loaded).
func groupLine(rows []history.Record, g *rowGroup, now time.Time, more bool) (by, times string) {
	newest, oldest := rows[g.members[0]], rows[g.members[len(g.members)-1]]
	verb := "denied"
	if newest.Result.Outcome == question.AutoApproved {
		verb = "allowed"
	}
	layout := "15:04"
	if calendarDays(oldest.Question.Created.Local(), now.Local()) != 0 {
		layout = "2 Jan 15:04"
	}
	plus := ""
	if more && g.members[len(g.members)-1] == len(rows)-1 {
		plus = "+" // its oldest is the last loaded: more may follow
	}
	return verb + " by rule " + newest.Result.RuleID, fmt.Sprintf("%s%s times, %s–%s", histThousands(g.size()), plus,
		oldest.Question.Created.Local().Format(layout), newest.Question.Created.Local().Format("15:04"))
}

// tellApart is what tells q apart from a neighbour with the same line
// (the row's client column names the agent and its host already): its
// time to the second and its session, "14:02:13 · session 4f2a9c1e".
func tellApart(q *question.Question) string {
	s := q.Created.Local().Format("15:04:05")
	if id := q.Client.SessionID; id != "" {
		if len(id) > 8 {
			id = id[:8]
		}
		s += " · session " + id
	}
	return s
}

// listAnchor is the list row just above the top of what shows (the last
// row whose top is above the scroll offset) and how far past its top the
// list is scrolled; zero when the list is at its top.
type listAnchor struct {
	id    string
	head  bool
	delta float32
}

// anchor notes what the person reads before h.rows change.
func (h *Window) anchor() listAnchor {
	offset := h.list.GetScrollOffset()
	if offset <= 0 || h.stride <= 0 || len(h.view) == 0 {
		return listAnchor{}
	}
	r := min(int(math.Ceil(float64(offset/h.stride)))-1, len(h.view)-1)
	v := h.view[r]
	return listAnchor{id: h.rows[v.rec].Question.ID, head: v.group != nil, delta: offset - float32(r)*h.stride}
}

// relist regroups and redraws the list after h.rows changed, keeping what
// the person reads: rows added or removed above the top move the scroll
// by as much (a at its top stays at the top, where new rows show), rows
// far from what shows are let go (trim), and the selection stays on its
// record.
func (h *Window) relist(a listAnchor) {
	before := h.list.GetScrollOffset()
	h.regroup()
	offset := h.anchored(a, before)
	if h.trim(offset) { // the rows far from what shows go
		h.regroup()
		offset = h.anchored(a, before)
	}
	h.list.Refresh()
	h.keepSelection(offset)
	h.updateStatus()
}

// toggleSelectedGroup opens or closes the group whose head is selected
// (the detail pane's button).
func (h *Window) toggleSelectedGroup() {
	if h.selIdx < 0 || h.selIdx >= len(h.view) || h.view[h.selIdx].group == nil {
		return
	}
	a := h.anchor()
	h.toggleGroup(h.view[h.selIdx].group)
	h.relist(a)
}

// apart is what tells list row id apart from a neighbouring record row
// with the same line (tellApart), or "".
func (h *Window) apart(id int) string {
	line := func(i int) string {
		if i < 0 || i >= len(h.view) || h.view[i].group != nil {
			return ""
		}
		q := h.rows[h.view[i].rec].Question
		return present.LineName(&q, h.home, 300)
	}
	own := line(id)
	if own == "" || (line(id-1) != own && line(id+1) != own) {
		return ""
	}
	q := h.rows[h.view[id].rec].Question
	return tellApart(&q)
}
