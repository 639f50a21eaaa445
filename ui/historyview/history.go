package historyview

import (
	"log/slog"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// History window settings.
const (
	historyPageSize   = 100                    // records per query
	historyPrefetch   = 20                     // load the next page when a row this close to the end shows
	historyDebounce   = 250 * time.Millisecond // how long typing must pause before a search runs
	historyTick       = 30 * time.Second       // how often relative times are redrawn
	historyQueryLimit = 30 * time.Second       // how long one store query may take
	// historyCoalesce is how long broker events gather before the window
	// looks them up in one go: a busy agent's 30 answers a second become a
	// few batches, each one query and one count.
	historyCoalesce = 200 * time.Millisecond
)

// The date ranges the history offers.
var historyRanges = []string{"Any time", "Today", "Last 7 days", "Last 30 days"}

// Window is the one history window: a filter bar over a split of the
// record list and the selected record's details. Closing it hides it.
//
// Every method and field runs on the Fyne goroutine. Store calls run on
// their own goroutines and hand their results back through do; results of a
// query older than the current filter (see gen) are dropped.
type Window struct {
	app   fyne.App
	store history.Store
	log   *slog.Logger
	win   fyne.Window

	// OnOpenDialog, when set, opens a pending question's dialog; the detail
	// pane offers "Open dialog" only then.
	OnOpenDialog func(id string)

	// do runs fn on the Fyne goroutine (fyne.Do); tests replace it.
	do func(fn func())
	// now is the clock for relative times and date ranges.
	now func() time.Time
	// debounce is how long typing must pause before a search runs.
	debounce time.Duration
	// coalesce is how long broker events gather before they are looked up
	// (historyCoalesce); negative looks each up at once, the baseline of
	// BenchmarkHistory_BusyAgent.
	coalesce time.Duration
	// home is the person's home directory, shown as ~ in the detail's
	// headline; "" when not known.
	home string

	// The filter bar, list and status line.
	search      *widget.Entry
	outcomeSel  *widget.Select
	clientSel   *widget.Select
	hostSel     *widget.Select  // the host filter (history_host.go)
	selects     *fyne.Container // the filter bar's selects
	kindSel     *widget.Select
	rangeSel    *widget.Select
	exportBtn   *widget.Button
	clearBtn    *widget.Button
	list        *widget.List
	empty       *widget.Label
	status      *widget.Label
	detail      *historyDetail
	lastDialog  dialog.Dialog         // the last dialog shown, for tests
	lastConfirm *dialog.ConfirmDialog // the last confirmation shown, for tests

	rows         []history.Record  // loaded records, newest first
	view         []viewRow         // the list's rows: records and heads of groups of rule decisions (regroup)
	grouping     bool              // identical rule decisions share a row; false in the baseline of BenchmarkHistory_BusyAgent
	keys         map[string]string // groupKey by question id
	opened       map[string]bool   // records of the groups the person opened
	runs         map[string]int    // regroup's buffers, kept between calls
	runBuf       []groupRun
	groupOf      []*rowGroup
	selHead      bool            // the selection is a group's head, showing selectedID
	selOut       bool            // the selected record was let go with its row (trim); its details stay
	next         string          // cursor after rows; "" when all are loaded
	keep         int             // records kept loaded besides those near what shows (trim); 0 keeps all, the baseline of BenchmarkHistory_BusyAgent
	newer        bool            // records newer than rows[0] match but were let go (trim)
	newerSkips   int             // records left out while newer (skipNewer)
	newerCursor  string          // the cursor loadNewer's query is on its way for
	holes        map[string]hole // closed groups' members let go, by the question id of the row above them (holeGroups)
	gen          int             // bumped by every reload
	countGen     int             // bumped by every count query
	loadingMore  bool
	loadingNewer bool
	reloading    bool                         // the first page is on its way
	afterReload  []question.Question          // events to look up again once it is here
	due          map[string]question.Question // questions changed since the last batch, latest copy each
	batching     bool                         // a batch is scheduled
	counts       map[question.Verdict]int     // per verdict, for the outcome filter
	clients      []string                     // as the client filter offers them
	hosts        []string                     // the remote hosts the host filter offers
	outcomeIdx   int                          // selected option of outcomeSel
	selectedID   string                       // the selected record's question id, "" for none
	selIdx       int                          // its row, -1 for none
	quiet        bool                         // set while the code itself changes selection or options
	visible      bool
	stale        bool        // the history changed while the window was hidden
	inflight     int         // queries and debounce timers not yet applied
	timer        *time.Timer // the search debounce
	tick         *time.Timer // the next redraw of relative times
	tickGen      int
	stride       float32 // height of a row plus its separator
}

// New returns the history window for store; nothing is built
// or loaded until Show. It may be called on any goroutine.
func New(a fyne.App, store history.Store, log *slog.Logger) *Window {
	if log == nil {
		log = slog.Default()
	}
	home, _ := os.UserHomeDir() // "" when not known: directories shown in full
	return &Window{
		app: a, store: store, log: log,
		do: fyne.Do, now: time.Now, debounce: historyDebounce, coalesce: historyCoalesce, home: home,
		selIdx: -1, stale: true, grouping: true, keep: historyKeep,
	}
}

// Show shows the window, building it on first use and reloading it if the
// history changed while it was hidden. It runs on the Fyne goroutine.
func (h *Window) Show() {
	if h.store == nil {
		h.log.Error("history window: no history store")
		return
	}
	if h.win == nil {
		h.build()
	}
	h.visible = true
	if h.stale {
		h.stale = false
		h.loadClients()
		h.loadHosts()
		h.reload()
	} else {
		h.list.Refresh() // relative times
	}
	h.startTick()
	h.win.Show()
	h.win.RequestFocus()
}

// invalidate says the history changed in a way no broker event reports,
// such as the retention clean-up: a shown window reloads now, a hidden one
// on its next Show. It runs on the Fyne goroutine.
func (h *Window) invalidate() {
	if !h.visible {
		h.stale = true
		return
	}
	h.loadClients()
	h.loadHosts()
	h.reload()
}

// hide hides the window; closing it lands here.
func (h *Window) hide() {
	h.visible = false
	h.stopTick()
	h.win.Hide()
}

// startTick redraws relative times every historyTick while the window shows.
func (h *Window) startTick() {
	h.stopTick()
	gen := h.tickGen
	h.tick = time.AfterFunc(historyTick, func() {
		h.do(func() {
			if gen == h.tickGen && h.visible {
				h.list.Refresh()
				h.startTick()
			}
		})
	})
}

// stopTick stops the redraws; one already queued does nothing.
func (h *Window) stopTick() {
	h.tickGen++
	if h.tick != nil {
		h.tick.Stop()
		h.tick = nil
	}
}

// build makes the window and its widgets.
func (h *Window) build() {
	h.quiet = true // the selects' first choices are no changes
	defer func() { h.quiet = false }()
	h.win = h.app.NewWindow("Asktray history")
	h.win.SetCloseIntercept(h.hide)

	h.search = widget.NewEntry()
	h.search.SetPlaceHolder("Search questions, answers and notes")
	h.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	h.search.OnChanged = func(string) { h.searchChanged() }

	h.outcomeSel = widget.NewSelect(h.outcomeOptions(), func(string) {
		if !h.quiet {
			h.outcomeIdx = max(h.outcomeSel.SelectedIndex(), 0)
			h.reload()
		}
	})
	h.outcomeSel.SetSelectedIndex(0)
	h.clientSel = widget.NewSelect([]string{"All clients"}, h.filterChanged)
	h.clientSel.SetSelectedIndex(0)
	kinds := []string{"All kinds"}
	for _, k := range question.Kinds {
		kinds = append(kinds, historyKindName(k))
	}
	h.kindSel = widget.NewSelect(kinds, h.filterChanged)
	h.kindSel.SetSelectedIndex(0)
	h.rangeSel = widget.NewSelect(historyRanges, h.filterChanged)
	h.rangeSel.SetSelectedIndex(0)

	h.exportBtn = widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), h.showExport)
	h.clearBtn = widget.NewButtonWithIcon("Clear older than…", theme.DeleteIcon(), h.showClear)
	h.status = widget.NewLabel("")
	h.status.SizeName = theme.SizeNameCaptionText

	h.stride = newHistoryRow().MinSize().Height + theme.Padding()
	h.list = widget.NewList(func() int { return len(h.view) }, func() fyne.CanvasObject { return newHistoryRow() }, h.updateRow)
	h.list.OnSelected = h.rowSelected
	h.empty = widget.NewLabelWithStyle("No questions match.", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	h.empty.Hide()

	h.detail = newHistoryDetail(h)
	h.selects = container.NewGridWithColumns(4, h.outcomeSel, h.clientSel, h.newHostSelect(), h.kindSel, h.rangeSel)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(h.exportBtn, h.clearBtn), h.search),
		h.selects,
	)
	split := container.NewHSplit(container.NewStack(h.list, container.NewCenter(h.empty)), h.detail.root)
	split.SetOffset(sideOffset)
	bottom := container.NewHBox(h.status, layout.NewSpacer())
	content := container.NewBorder(container.NewPadded(top), container.NewPadded(bottom), nil, nil, newAdaptiveSplit(split))
	h.win.SetContent(uikit.RepaintOnResize(content))
	h.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { h.win.Canvas().Focus(h.search) })
	h.win.Resize(fyne.NewSize(1000, 640))
	h.win.CenterOnScreen()
}

// updateRow fills a list row and asks for the next page when the list
// nears the end of what is loaded, or the newer one when it nears the top
// of what is loaded and trim let newer rows go.
func (h *Window) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(h.view) {
		return
	}
	v, last := h.view[id], h.view[id].rec
	if v.group != nil {
		o.(*historyRow).setGroup(h.rows, v.group, h.now(), h.home, h.next != "")
		if len(h.rows) < h.groupLoads() {
			last = v.group.members[len(v.group.members)-1]
		}
	} else {
		o.(*historyRow).set(h.rows[v.rec], h.now(), h.home, h.apart(id))
	}
	if last >= len(h.rows)-historyPrefetch {
		h.loadMore()
	}
	if v.rec < historyPrefetch {
		h.loadNewer() // rows trim let go above
	}
}

// rowSelected shows the details of the row the person picked.
// A group's head shows its newest decision and opens the group.
func (h *Window) rowSelected(id widget.ListItemID) {
	h.selIdx = id
	if h.quiet || id < 0 || id >= len(h.view) {
		return
	}
	v := h.view[id]
	h.selectedID, h.selHead = h.rows[v.rec].Question.ID, v.group != nil
	h.detail.show(h.rows[v.rec])
	if v.group != nil {
		if !v.group.open {
			a := h.anchor()
			h.toggleGroup(v.group)
			h.relist(a)
		}
		h.detail.showGroup(v.group.size(), true)
	}
}

// filterChanged reloads after a select changed.
func (h *Window) filterChanged(string) {
	if !h.quiet {
		h.reload()
	}
}

// searchChanged runs the search once typing pauses for h.debounce. The
// timer's callback goes through h.do.
func (h *Window) searchChanged() {
	if h.timer == nil || !h.timer.Stop() {
		h.inflight++ // a stopped timer was counted already
	}
	h.timer = time.AfterFunc(h.debounce, func() {
		h.do(func() {
			h.inflight--
			h.reload()
		})
	})
}

// setSearch sets the search text and searches at once, skipping the debounce.
func (h *Window) setSearch(text string) {
	if h.timer != nil && h.timer.Stop() {
		h.inflight--
	}
	h.search.OnChanged = nil
	h.search.SetText(text)
	h.search.OnChanged = func(string) { h.searchChanged() }
	h.reload()
}
