package historyview

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/question"
)

func TestHistory_ShowsNewestFirst(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	if h.win.Title() != "Asktray history" || len(h.rows) != len(histSeed) || x.first() != histSeed[0].q.Message {
		t.Fatalf("title %q, %d rows, first %q", h.win.Title(), len(h.rows), x.first())
	}
	if got := h.status.Text; got != "13 questions" {
		t.Errorf("status %q", got)
	}
	if got := h.clientSel.Options; !slices.Equal(got, []string{"All clients", "claude-code", "codex", "cursor", "vscode"}) {
		t.Errorf("client options %q", got)
	}
	// Closing hides the window (the test driver has no close button to
	// press, so call what the close intercept calls); it is reused.
	h.hide()
	if h.visible {
		t.Error("closed window still counts as visible")
	}
	w := h.win
	x.show()
	if h.win != w {
		t.Error("Show made a second window")
	}
}

func TestHistory_FiltersCombine(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "Answered")
	if len(h.rows) != 4 || x.first() != histSeed[1].q.Message {
		t.Fatalf("answered: %v, first %q", x.ids(), x.first())
	}
	x.selectOption(h.clientSel, h.clientSel.Options, "cursor")
	if !slices.Equal(x.ids(), []string{"h03"}) { // h12, a confirm answered yes, is allowed
		t.Fatalf("answered by cursor: %v", x.ids())
	}
	x.selectOption(h.rangeSel, h.rangeSel.Options, "Last 7 days")
	if !slices.Equal(x.ids(), []string{"h03"}) || x.first() != "Which database should the integration tests use?" {
		t.Fatalf("answered by cursor this week: %v", x.ids())
	}
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "All outcomes")
	x.selectOption(h.kindSel, h.kindSel.Options, "Confirm")
	if !slices.Equal(x.ids(), []string{"h05"}) {
		t.Fatalf("cursor confirms this week: %v", x.ids())
	}
	x.selectOption(h.rangeSel, h.rangeSel.Options, "Today")
	x.selectOption(h.clientSel, h.clientSel.Options, "All clients")
	if !slices.Equal(x.ids(), []string{"h02", "h05"}) {
		t.Fatalf("today's confirms: %v", x.ids())
	}
	x.selectOption(h.kindSel, h.kindSel.Options, "Multi-choice")
	if len(h.rows) != 0 || h.empty.Hidden || h.status.Text != "0 questions" {
		t.Fatalf("no multi-choice today: %v, empty hidden %v, status %q", x.ids(), h.empty.Hidden, h.status.Text)
	}
}

func TestHistory_SearchDebouncedAndCombined(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	h.debounce = historyDebounce // typing 8 letters takes less, even under -race
	gen := h.gen
	test.Type(h.search, "postgres")
	x.wait()
	if h.gen != gen+1 {
		t.Errorf("typing 8 letters ran %d searches, want 1", h.gen-gen)
	}
	if !slices.Equal(x.ids(), []string{"h03"}) {
		t.Fatalf("search postgres: %v", x.ids())
	}
	// Answers and notes are searched too; the search combines with filters.
	h.setSearch("release")
	x.wait()
	if !slices.Equal(x.ids(), []string{"h01", "h05"}) {
		t.Fatalf("search release: %v", x.ids())
	}
	x.selectOption(h.clientSel, h.clientSel.Options, "cursor")
	if !slices.Equal(x.ids(), []string{"h05"}) || x.first() != "Delete 14 unused feature flags from config/flags.yaml?" {
		t.Fatalf("search release from cursor: %v", x.ids())
	}
	if got := h.outcomeSel.Options[0]; got != "All outcomes (1)" {
		t.Errorf("counts follow the search: %q", got)
	}
	// Fast typing: only the last search's results show.
	h.setSearch("")
	h.setSearch("flags")
	h.setSearch("nothing-matches-this")
	x.wait()
	if len(h.rows) != 0 {
		t.Fatalf("stale results shown: %v", x.ids())
	}
}

func TestHistory_OutcomeCounts(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h := x.h
	want := []string{"All outcomes (13)", "Pending (1)", "Allowed (1)", "Denied (0)", "Answered (4)", "Declined (1)", "Cancelled (1)",
		"By rule (1)", "Allowed by rule (1)", "Denied by rule (0)", "Timed out (1)", "Withdrawn (1)", "Away mode (1)", "Blocked by auto mode (0)", "Interrupted (1)"}
	if !slices.Equal(h.outcomeSel.Options, want) {
		t.Fatalf("options %q", h.outcomeSel.Options)
	}
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "Withdrawn")
	if h.outcomeSel.Selected != "Withdrawn (1)" || !slices.Equal(x.ids(), []string{"h07"}) {
		t.Fatalf("selected %q, rows %v", h.outcomeSel.Selected, x.ids())
	}
	x.selectOption(h.outcomeSel, h.outcomeSel.Options, "Timed out")
	x.selectOption(h.clientSel, h.clientSel.Options, "codex")
	if h.outcomeSel.Selected != "Timed out (1)" || h.outcomeSel.Options[0] != "All outcomes (3)" || !slices.Equal(x.ids(), []string{"h02"}) {
		t.Fatalf("codex: selected %q, options %q, rows %v", h.outcomeSel.Selected, h.outcomeSel.Options, x.ids())
	}
}

func TestHistory_Detail(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	var opened []string
	h.OnOpenDialog = func(id string) { opened = append(opened, id) }
	if !d.body.Hidden || d.placeholder.Hidden {
		t.Fatal("details show with nothing selected")
	}
	h.list.Select(1) // the form
	checks := map[string][2]string{
		"title":   {d.title.Text, "Prepare release v1.4.0"},
		"outcome": {d.outcome.Text, "Answered"},
		"decider": {d.decider.Text, "·  You, in the dialog"},
		"answer":  {d.answer.Text, "{\n  \"version\": \"1.4.0\",\n  \"draft\": false,\n  \"build\": 42,\n  \"notes\": \"Fixes the login loop\"\n}"},
		"took":    {d.took.Text, "41 s"},
		"asked":   {d.asked.Text, histNow.Add(-8 * time.Minute).Format("Mon 2 Jan 2006, 15:04:05")},
		"decided": {d.decided.Text, histNow.Add(-8*time.Minute + 41*time.Second).Format("Mon 2 Jan 2006, 15:04:05")},
		"client":  {d.client.Text, "vscode 1.96.2, session sess-vs41c9e07"},
		"kind":    {d.kind.Text, "Form"},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if d.outcome.Importance != widget.MediumImportance || !d.answer.TextStyle.Monospace || d.schemaBox.Hidden || !strings.Contains(d.schema.Text, `"required": [`) {
		t.Error("form answer is not styled as JSON or the schema is missing")
	}
	if !d.openBtn.Hidden || d.copyBtn.Hidden {
		t.Error("a finished question offers Open dialog, or no Copy answer")
	}
	test.Tap(d.copyBtn)
	if got := h.app.Clipboard().Content(); !strings.HasPrefix(got, "{\n  \"version\": \"1.4.0\"") {
		t.Errorf("clipboard %q", got)
	}

	for _, c := range []struct {
		row              int
		decider, outcome string
		answer           string
	}{
		{2, "·  Timeout", "Timed out", ""},
		{3, "·  You, from a notification", "Answered", ""}, // the options show the choice
		{4, "·  Rule r1", "Allowed by rule", "Allow"},
		{5, "·  You, in the dialog", "Declined", ""},
		{6, "·  Away mode", "Away mode", ""},
		{10, "·  You, on the command line", "Answered", "ledger-sync"},
	} {
		h.list.Select(c.row)
		if d.decider.Text != c.decider || d.outcome.Text != c.outcome || (!d.answerBox.Hidden && d.answer.Text != c.answer) || (c.answer != "") == d.answerBox.Hidden {
			t.Errorf("row %d: %q %q answer %q (hidden %v)", c.row, d.outcome.Text, d.decider.Text, d.answer.Text, d.answerBox.Hidden)
		}
	}
	h.list.Select(5)
	if d.note.Hidden || d.note.Text != "Note: not before the release" {
		t.Errorf("declined note %q hidden %v", d.note.Text, d.note.Hidden)
	}
	h.list.Select(3)
	if got := d.options.String(); !strings.Contains(got, "Postgres 16  —  matches production   (chosen)") || strings.Contains(got, "SQLite  —  fast, in-memory   (chosen)") {
		t.Errorf("options %q", got)
	}

	// Links and images in the message are plain text: nothing opens a browser.
	h.list.Select(12)
	rt := d.message.Objects[0].(*widget.RichText)
	if strings.Contains(richSegmentTypes(rt.Segments), "Hyperlink") || strings.Contains(richSegmentTypes(rt.Segments), "Image") ||
		!strings.Contains(rt.String(), "the pull request (https://github.com/example/app/pull/42)") {
		t.Errorf("message segments %s: %q", richSegmentTypes(rt.Segments), rt.String())
	}

	// A pending question offers its dialog.
	h.list.Select(0)
	if d.openBtn.Hidden || !d.copyBtn.Hidden || d.decider.Text != "·  waiting for an answer" || d.outcome.Text != "Pending" {
		t.Fatalf("pending: open hidden %v, copy hidden %v, %q", d.openBtn.Hidden, d.copyBtn.Hidden, d.decider.Text)
	}
	if !d.deleteBtn.Disabled() {
		t.Error("a pending question can be deleted; the broker could not record its outcome")
	}
	test.Tap(d.openBtn)
	if !slices.Equal(opened, []string{"h00"}) {
		t.Errorf("opened %v", opened)
	}
	h.OnOpenDialog = nil
	h.list.Select(1)
	h.list.Select(0)
	if !d.openBtn.Hidden {
		t.Error("Open dialog shows with no dialog to open")
	}
}

// richSegmentTypes lists the types of segs and of the segments inside them.
func richSegmentTypes(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.HyperlinkSegment:
			b.WriteString("Hyperlink ")
		case *widget.ImageSegment:
			b.WriteString("Image ")
		case *widget.ParagraphSegment:
			b.WriteString(richSegmentTypes(s.Texts))
		case *widget.ListSegment:
			b.WriteString(richSegmentTypes(s.Items))
		default:
			b.WriteString("Text ")
		}
	}
	return b.String()
}

func TestHistory_RowTexts(t *testing.T) {
	test.NewTempApp(t)
	recs := seedHistory(t, historytest.New(t), histSeed)
	r := newHistoryRow()
	for _, c := range []struct {
		i    int
		want [rowTexts]string
	}{
		{0, [rowTexts]string{"Apply the staging plan", "2 min ago", "claude-code", "Approval", "Pending", "waiting", ""}},
		{1, [rowTexts]string{"Prepare release v1.4.0", "8 min ago", "vscode", "Form", "Answered", "build: 42, draft: false, notes: Fixes the login loop, version: 1.4.0", "41 s"}},
		{2, [rowTexts]string{"Force-push main", "25 min ago", "codex", "Confirm", "Timed out", "", "5 min 00 s"}},
		{4, [rowTexts]string{"Run the test suite", "2 h ago", "claude-code", "Approval", "Allowed by rule", "Allow", "<1 s"}},
		{5, [rowTexts]string{"Delete 14 unused feature flags from config/flags.yaml?", "3 h ago", "cursor", "Confirm", "Declined", "“not before the release”", "1 min 35 s"}},
		{6, [rowTexts]string{"What should the new branch be called?", "yesterday", "claude-code", "Text", "Away mode", "", "5 min 00 s"}},
		{8, [rowTexts]string{"Paste the API token for the staging environment.", "2 days ago", "vscode", "Text", "Interrupted", "app stopped", "3 h 00 min"}},
		{11, [rowTexts]string{"Which tests should run?", "28 Feb", "claude-code", "Multi-choice", "Answered", "unit, lint", "8 s"}},
	} {
		r.set(recs[c.i], histNow, "", "")
		if r.full != c.want {
			t.Errorf("row %d = %q,\nwant %q", c.i, r.full, c.want)
		}
	}
	if got := fitText("Which database should the integration tests use?", 14, r.texts[0].TextStyle, 120); !strings.HasSuffix(got, "…") || len(got) < 8 {
		t.Errorf("fitText = %q", got)
	}
}

// TestHistory_DetailScrolledToTop: each newly selected row's detail starts
// at its top, not at the previous row's scroll position.
func TestHistory_DetailScrolledToTop(t *testing.T) {
	s := historytest.New(t)
	seedHistory(t, s, histSeed)
	x := newHistHarness(t, s).show()
	h, d := x.h, x.h.detail
	h.list.Select(1) // the form, with its schema: taller than the pane
	d.schemaBox.OpenAll()
	d.scroll.ScrollToBottom()
	if d.scroll.Offset.Y == 0 {
		t.Fatalf("the form's detail does not scroll (content %v, pane %v)", d.scroll.Content.MinSize(), d.scroll.Size())
	}
	h.list.Select(2)
	if d.scroll.Offset.Y != 0 {
		t.Fatalf("the next row's detail opens scrolled to %v", d.scroll.Offset.Y)
	}
}

// TestHistory_RowNamesWhatItWouldDo: a hook approval's row says what it
// would do, "npm test in ~/src/shop", not "Bash"; a header's Markdown shows
// as plain text.
func TestHistory_RowNamesWhatItWouldDo(t *testing.T) {
	test.NewTempApp(t)
	r := newHistoryRow()
	bash := history.Record{Question: question.Question{ID: "h1", Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash",
		Message: "Bash", Client: question.Client{Name: "claude-code"}, Input: json.RawMessage(`{"command":"npm test"}`),
		Cwd: "/home/ada/src/shop", Created: histNow.Add(-time.Minute)}}
	r.set(bash, histNow, "/home/ada", "")
	if got := r.full[rowQuestion]; got != "npm test in ~/src/shop" {
		t.Errorf("hook approval row %q", got)
	}
	md := history.Record{Question: question.Question{ID: "h2", Kind: question.KindConfirm, Header: "Run the **database migration**?",
		Message: "On staging.", Client: question.Client{Name: "cursor"}, Created: histNow.Add(-time.Minute)}}
	r.set(md, histNow, "/home/ada", "")
	if got := r.full[rowQuestion]; got != "Run the database migration?" {
		t.Errorf("Markdown row %q", got)
	}
}
