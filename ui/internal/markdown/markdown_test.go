package markdown

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// walkSegments calls f for every segment, descending into lists and paragraphs.
func walkSegments(segs []widget.RichTextSegment, f func(widget.RichTextSegment)) {
	for _, s := range segs {
		f(s)
		switch s := s.(type) {
		case *widget.ListSegment:
			walkSegments(s.Items, f)
		case *widget.ParagraphSegment:
			walkSegments(s.Texts, f)
		}
	}
}

func TestMarkdown_LinksAreText(t *testing.T) {
	test.NewTempApp(t)
	md := "See [the docs](https://evil.example/x?a=1) and <https://auto.example/y>.\n\n" +
		"- item with [a link](https://list.example/)\n- ![logo](https://img.example/logo.png)\n\n" +
		"```\nrm -rf build/ <https://not.a.link>\n```\n\nInline `<https://code.example>` stays."
	rt := Render(md)
	var text strings.Builder
	var mono []string
	walkSegments(rt.Segments, func(s widget.RichTextSegment) {
		switch s := s.(type) {
		case *widget.HyperlinkSegment:
			t.Errorf("hyperlink left: %q -> %v", s.Text, s.URL)
		case *widget.ImageSegment:
			t.Errorf("image left: %v", s.Source)
		case *widget.TextSegment:
			text.WriteString(s.Text)
			if s.Style.TextStyle.Monospace {
				mono = append(mono, s.Text)
			}
		}
	})
	got := text.String()
	for _, want := range []string{"the docs (", "https://evil.example/x?a=1", "https://auto.example/y",
		"a link (", "https://list.example/", "[image] (", "https://img.example/logo.png"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q: %s", want, got)
		}
	}
	if !strings.Contains(strings.Join(mono, "|"), "rm -rf build/ <https://not.a.link>") {
		t.Errorf("code block not monospace or altered: %q", mono)
	}
	if !strings.Contains(strings.Join(mono, "|"), "<https://code.example>") {
		t.Errorf("code span altered: %q", mono)
	}
	if rt.Wrapping != fyne.TextWrapWord {
		t.Error("message does not wrap")
	}
}

func TestMarkdown_CodeBlocksOnTheirOwnPanel(t *testing.T) {
	test.NewTempApp(t)
	_, parts := MessageView(Render("Run this:\n\n```\ngit push --force\n```\n\nThen tell me."))
	if len(parts) != 3 {
		t.Fatalf("%d parts, want prose, code, prose", len(parts))
	}
	code := parts[1].Segments[0].(*widget.TextSegment)
	if code.Text != "git push --force" || !code.Style.TextStyle.Monospace || parts[1].Wrapping != fyne.TextWrapWord {
		t.Fatalf("code part %+v", code)
	}
}

// TestMarkdown_TextAsWritten: text reads as the agent wrote it. Fyne's own
// renderer showed "0042_split_ledger" as "0042_ split_ ledger", "a[b" as
// "a [ b", joined the words of an emphasis with spaces and kept "\*".
func TestMarkdown_TextAsWritten(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct{ md, want string }{
		{"Run migration 0042_split_ledger now", "Run migration 0042_split_ledger now"},
		{"**0042_split_ledger** done", "0042_split_ledger done"},
		{"a[b] x!y a<b 2*3*4", "a[b] x!y a<b 234"},
		{"line one\nline two", "line one line two"},
		{`a \*literal\* star`, "a *literal* star"},
		{"`a\\*b` kept", `a\*b kept`},
		{"## 0042_split_ledger", "0042_split_ledger"},
		{"- item_one_two\n- b", "item_one_twob"},
	} {
		var b strings.Builder
		walkSegments(Render(c.md).Segments, func(s widget.RichTextSegment) {
			if ts, ok := s.(*widget.TextSegment); ok {
				b.WriteString(ts.Text)
			}
		})
		if got := b.String(); got != c.want {
			t.Errorf("Render(%q) reads %q, want %q", c.md, got, c.want)
		}
	}
}

// TestMarkdown_WordsInOneSegment: the text of a paragraph is one segment,
// so Fyne, which may wrap between segments, wraps it only at its spaces:
// "ledger_credits" never ends a line at its underscore.
func TestMarkdown_WordsInOneSegment(t *testing.T) {
	test.NewTempApp(t)
	rt := Render("It splits ledger_entries into ledger_debits and ledger_credits.")
	if len(rt.Segments) != 1 {
		t.Fatalf("%d segments: %q", len(rt.Segments), richTexts(rt.Segments))
	}
	rt = Render("Run `0042_split_ledger` on a_b **now_or** later_on")
	if got := richTexts(rt.Segments); !slices.Equal(got, []string{"Run ", "0042_split_ledger", " on a_b ", "now_or", " later_on"}) {
		t.Fatalf("segments %q", got)
	}
}

// richTexts lists the texts of segs.
func richTexts(segs []widget.RichTextSegment) []string {
	var out []string
	for _, s := range segs {
		if ts, ok := s.(*widget.TextSegment); ok {
			out = append(out, ts.Text)
		}
	}
	return out
}

// TestMarkdown_CodeWrapsBetweenWords: a long command wraps at its spaces,
// never inside a flag or a name.
func TestMarkdown_CodeWrapsBetweenWords(t *testing.T) {
	test.NewTempApp(t)
	cmd := "kubectl --context prod-eu-west-1 -n payments rollout restart deployment/payments-api && git push --force origin release/2026-03"
	view, parts := MessageView(Render("```sh\n" + cmd + "\n```"))
	view.Resize(fyne.NewSize(300, view.MinSize().Height))
	view.Resize(fyne.NewSize(300, view.MinSize().Height))
	var lines []string
	for _, o := range test.LaidOutObjects(parts[0]) {
		if txt, ok := o.(*canvas.Text); ok && txt.Text != "" {
			lines = append(lines, txt.Text)
		}
	}
	if len(lines) < 2 {
		t.Fatalf("the command did not wrap at 300 wide: %q", lines)
	}
	words := map[string]bool{}
	for w := range strings.FieldsSeq(cmd) {
		words[w] = true
	}
	for _, l := range lines {
		for w := range strings.FieldsSeq(l) {
			if !words[w] {
				t.Errorf("line %q splits a word (%q)", l, w)
			}
		}
	}
}
