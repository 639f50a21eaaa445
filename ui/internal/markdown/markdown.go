// Package markdown renders an agent's Markdown message for the question
// dialog and the history window, defanged for untrusted text: no link opens
// and no image loads. Call it on the Fyne goroutine.
package markdown

import (
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Render renders an agent's message with Fyne's Markdown support,
// defanged for untrusted text: links become plain text "label (url)", so
// nothing in the message opens a browser (a HyperlinkSegment opens its URL
// on a single tap, and mcp-remote's CVE-2025-6514 showed what handing a
// peer-supplied URL to the OS "open" can do), and
// images become "[image] (url)" text, so nothing is fetched or read from
// disk. Code spans and blocks stay monospace. Call it on the Fyne goroutine
// before the RichText is shown.
func Render(md string) *widget.RichText {
	rt := widget.NewRichText(parse(keepAutolinks(md))...)
	segs := defang(rt.Segments)
	// Every paragraph ends in an empty block segment; the last one would
	// leave a blank line at the bottom of the card.
	for len(segs) > 0 {
		t, ok := segs[len(segs)-1].(*widget.TextSegment)
		if !ok || t.Text != "" || t.Inline() {
			break
		}
		segs = segs[:len(segs)-1]
	}
	rt.Segments = segs
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// MessageView lays out a rendered message: its text, with each code block
// on a darker panel of its own so a command stands apart from the prose
// around it; code wraps between words (at spaces), so that no flag or
// name is split across lines ("-|-force"), and only a word longer than a
// line is broken. It returns the
// view and the RichTexts in it. Call it on the Fyne goroutine.
func MessageView(rt *widget.RichText) (fyne.CanvasObject, []*widget.RichText) {
	box := container.NewVBox()
	var parts []*widget.RichText
	var prose []widget.RichTextSegment
	flush := func() {
		if len(prose) > 0 {
			p := widget.NewRichText(prose...)
			p.Wrapping = fyne.TextWrapWord
			parts = append(parts, p)
			box.Add(p)
			prose = nil
		}
	}
	for _, s := range rt.Segments {
		t, ok := s.(*widget.TextSegment)
		if !ok || t.Style != widget.RichTextStyleCodeBlock {
			prose = append(prose, s)
			continue
		}
		flush()
		code := widget.NewRichText(t)
		code.Wrapping = fyne.TextWrapWord
		parts = append(parts, code)
		bg := canvas.NewRectangle(theme.Color(theme.ColorNameBackground))
		bg.CornerRadius = theme.InputRadiusSize()
		box.Add(container.NewStack(bg, code))
	}
	flush()
	return box, parts
}

// defang returns segs with every hyperlink and image replaced by plain
// text, descending into lists and paragraphs.
func defang(segs []widget.RichTextSegment) []widget.RichTextSegment {
	out := make([]widget.RichTextSegment, 0, len(segs))
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.HyperlinkSegment:
			u := ""
			if s.URL != nil {
				u = s.URL.String()
			}
			out = append(out, linkText(s.Text, u)...)
		case *widget.ImageSegment:
			u := ""
			if s.Source != nil {
				u = s.Source.String()
			}
			label := "[image"
			if s.Title != "" {
				label += ": " + s.Title
			}
			out = append(out, linkText(label+"]", u)...)
		case *widget.ListSegment:
			s.Items = defang(s.Items)
			out = append(out, s)
		case *widget.ParagraphSegment:
			s.Texts = defang(s.Texts)
			out = append(out, s)
		default:
			out = append(out, s)
		}
	}
	return out
}

// linkText shows a link as its label followed by its URL in monospace, or
// just the URL when the label is the URL.
func linkText(label, url string) []widget.RichTextSegment {
	code := widget.RichTextStyleCodeInline
	plain := widget.RichTextStyleInline
	switch {
	case url == "":
		return []widget.RichTextSegment{&widget.TextSegment{Style: plain, Text: label}}
	case label == "" || label == url:
		return []widget.RichTextSegment{&widget.TextSegment{Style: code, Text: url}}
	}
	return []widget.RichTextSegment{
		&widget.TextSegment{Style: plain, Text: label + " ("},
		&widget.TextSegment{Style: code, Text: url},
		&widget.TextSegment{Style: plain, Text: ")"},
	}
}

// autolink matches a CommonMark autolink such as <https://example.com> or <a@b.example>.
var autolink = regexp.MustCompile("<([a-zA-Z][a-zA-Z0-9+.\\-]{1,31}:[^<>\\s`]*|[^<>\\s@`]+@[^<>\\s@`]+)>")

// keepAutolinks rewrites autolinks as code spans, the way defang shows a
// link whose label is its URL: Fyne 2.7.1's Markdown renderer has no case
// for ast.AutoLink and silently drops them. Code blocks and spans are left alone.
func keepAutolinks(md string) string {
	if !strings.Contains(md, "<") {
		return md
	}
	lines := strings.Split(md, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) < 4 {
			if f := fenceOf(trimmed); f != "" {
				switch {
				case fence == "":
					fence = f
				case strings.HasPrefix(trimmed, fence):
					fence = ""
				}
				continue
			}
		}
		if fence != "" || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		parts := strings.Split(line, "`")
		for j := 0; j < len(parts); j += 2 { // even parts lie outside code spans
			parts[j] = autolink.ReplaceAllStringFunc(parts[j], func(m string) string {
				return "`" + m[1:len(m)-1] + "`"
			})
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

// fenceOf returns the fence that starts line (``` or ~~~, three or more), or "".
func fenceOf(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}
