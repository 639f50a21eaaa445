package markdown

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// parse turns Markdown into RichText segments the way Fyne 2.7.1's
// NewRichTextFromMarkdown does, with the text shown as written: Fyne puts a
// space after every text node that another inline follows, and goldmark
// splits text at every delimiter it tries, so "0042_split_ledger" read
// "0042_ split_ ledger" and "a[b" read "a [ b"; it also joined the words of
// an emphasis with spaces and kept backslash escapes. Here a space is added
// only where the source breaks a line, and escapes are resolved.
func parse(md string) []widget.RichTextSegment {
	src := []byte(md)
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	return block(src, doc, false)
}

// block renders the children of n, with neighbouring inline text of one
// style in one segment: goldmark ends a text node at every delimiter it
// tries, and Fyne may wrap a line between two segments, so
// "ledger_credits" split in two could wrap as "ledger_" and "credits".
func block(src []byte, n ast.Node, quote bool) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		for _, seg := range node(src, c, quote) {
			t, ok := seg.(*widget.TextSegment)
			if prev, same := lastText(out); ok && same && t.Inline() && prev.Style == t.Style {
				prev.Text += t.Text
				continue
			}
			out = append(out, seg)
		}
	}
	return out
}

// lastText returns the last of segs if it is a text segment.
func lastText(segs []widget.RichTextSegment) (*widget.TextSegment, bool) {
	if len(segs) == 0 {
		return nil, false
	}
	t, ok := segs[len(segs)-1].(*widget.TextSegment)
	return t, ok
}

// node renders one node as Fyne's renderer does (see parse).
func node(src []byte, n ast.Node, quote bool) []widget.RichTextSegment {
	switch t := n.(type) {
	case *ast.Paragraph:
		segs := block(src, n, quote)
		if !quote {
			segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph})
		}
		return segs
	case *ast.List:
		l := &widget.ListSegment{Items: block(src, n, quote), Ordered: t.IsOrdered()}
		l.SetStartNumber(t.Start)
		return []widget.RichTextSegment{l}
	case *ast.ListItem:
		return []widget.RichTextSegment{&widget.ParagraphSegment{Texts: block(src, n, quote)}}
	case *ast.TextBlock, *ast.Blockquote:
		return block(src, n, quote || n.Kind() == ast.KindBlockquote)
	case *ast.Heading:
		return []widget.RichTextSegment{heading(t.Level, inlineText(src, n))}
	case *ast.ThematicBreak:
		return []widget.RichTextSegment{&widget.SeparatorSegment{}}
	case *ast.Link:
		u, _ := url.Parse(string(t.Destination))
		return []widget.RichTextSegment{&widget.HyperlinkSegment{Alignment: fyne.TextAlignLeading, Text: inlineText(src, n), URL: u}}
	case *ast.Image:
		u, err := storage.ParseURI(string(t.Destination))
		if err != nil {
			u = storage.NewFileURI(string(t.Destination))
		}
		return []widget.RichTextSegment{&widget.ImageSegment{Source: u, Title: string(t.Title), Alignment: fyne.TextAlignCenter}}
	case *ast.CodeSpan:
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleCodeInline, Text: rawText(src, n)}}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return codeBlock(src, n)
	case *ast.Emphasis:
		style := widget.RichTextStyleEmphasis
		if t.Level == 2 {
			style = widget.RichTextStyleStrong
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: style, Text: inlineText(src, n)}}
	case *ast.Text:
		style := widget.RichTextStyleInline
		if quote {
			style = widget.RichTextStyleBlockquote
		}
		s := string(util.UnescapePunctuations(t.Value(src))) + lineBreak(t)
		if s == "" {
			return nil
		}
		return []widget.RichTextSegment{&widget.TextSegment{Style: style, Text: s}}
	case *ast.String:
		return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleInline, Text: string(t.Value)}}
	}
	return nil
}

// heading is a heading's segment: levels 1 and 2 have their own styles,
// the others are bold paragraphs.
func heading(level int, s string) widget.RichTextSegment {
	switch level {
	case 1:
		return &widget.TextSegment{Style: widget.RichTextStyleHeading, Text: s}
	case 2:
		return &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: s}
	}
	seg := &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: s}
	seg.Style.TextStyle.Bold = true
	return seg
}

// codeBlock is a code block's segment, its lines as written without the
// last line ending; an empty block has none.
func codeBlock(src []byte, n ast.Node) []widget.RichTextSegment {
	var data []byte
	lines := n.Lines()
	for i := range lines.Len() {
		line := lines.At(i)
		data = append(data, line.Value(src)...)
	}
	if len(data) == 0 {
		return nil
	}
	data = []byte(strings.TrimSuffix(string(data), "\n"))
	return []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: string(data)}}
}

// lineBreak is what stands for the line ending after t: a space, or
// nothing when the text goes on in the same line.
func lineBreak(t *ast.Text) string {
	if t.SoftLineBreak() || t.HardLineBreak() {
		return " "
	}
	return ""
}

// inlineText is the text of n's descendants as written (escapes resolved).
func inlineText(src []byte, n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		switch t := c.(type) {
		case *ast.Text:
			if entering {
				b.Write(util.UnescapePunctuations(t.Value(src)))
				b.WriteString(lineBreak(t))
			}
		case *ast.String:
			if entering {
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSuffix(b.String(), " ")
}

// rawText is a code span's content exactly as written.
func rawText(src []byte, n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Value(src))
			b.WriteString(lineBreak(t))
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}
