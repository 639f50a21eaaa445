package webask

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// markdown renders an agent's Markdown message as HTML, defanged as the
// dialog's (ui/internal/markdown) is for untrusted text: CommonMark without
// extensions, so code blocks are <pre><code>, emphasis, lists, quotes and
// headings are themselves, and
//   - no link is live: a link is its label followed by its URL in
//     monospace, or the URL alone when it is the label, and an autolink is
//     its URL in monospace, so no href of any scheme (javascript:, data:,
//     a phishing https:) is on the page;
//   - no image loads: it is "[image]" (with its title) and its URL;
//   - raw HTML is shown as the text it is, escaped, never as markup;
//   - headings start at <h3>, under the page's headline and title.
var markdown = goldmark.New(goldmark.WithRendererOptions(
	renderer.WithNodeRenderers(util.Prioritized(defanged{}, 100)), // before goldmark's own HTML renderer (1000)
))

// renderMarkdown renders md (see markdown).
func renderMarkdown(md string) template.HTML {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(md), &buf); err != nil {
		// Writing to a buffer does not fail; were it to, show the text as written.
		return template.HTML("<p>" + template.HTMLEscapeString(md) + "</p>") //nolint:gosec // G203: escaped
	}
	return template.HTML(buf.String()) //nolint:gosec // G203: goldmark escapes text and defanged replaces links, images and raw HTML
}

// defanged renders the nodes that could make markup, a request or a live
// link out of an agent's text.
type defanged struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (defanged) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindAutoLink, renderAutoLink)
	reg.Register(ast.KindImage, renderImage)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindHeading, renderHeading)
}

// renderLink writes a link's label, then " (url)" with the URL in
// monospace; a link whose label is its URL, or has none, is the URL alone.
func renderLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l, _ := n.(*ast.Link)
	dest := string(l.Destination)
	label := plainText(src, n)
	alone := label == "" || label == dest
	switch {
	case dest == "":
		return ast.WalkContinue, nil // just the label
	case entering && alone:
		writeCode(w, dest)
		return ast.WalkSkipChildren, nil
	case !entering && !alone:
		_, _ = w.WriteString(" (")
		writeCode(w, dest)
		_, _ = w.WriteString(")")
	}
	return ast.WalkContinue, nil
}

// renderAutoLink writes <https://example.com> as its URL in monospace.
func renderAutoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		l, _ := n.(*ast.AutoLink)
		writeCode(w, string(l.Label(src)))
	}
	return ast.WalkSkipChildren, nil
}

// renderImage writes "[image: title] (url)", fetching nothing.
func renderImage(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	img, _ := n.(*ast.Image)
	label := "[image"
	if len(img.Title) > 0 {
		label += ": " + string(img.Title)
	}
	_, _ = w.WriteString(template.HTMLEscapeString(label + "]"))
	if len(img.Destination) > 0 {
		_, _ = w.WriteString(" (")
		writeCode(w, string(img.Destination))
		_, _ = w.WriteString(")")
	}
	return ast.WalkSkipChildren, nil
}

// renderRawHTML writes inline HTML as the text it is.
func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			s := segs.At(i)
			_, _ = w.WriteString(template.HTMLEscapeString(string(s.Value(src))))
		}
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock writes a block of HTML as a paragraph of the text it is,
// its lines kept.
func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	var text strings.Builder
	lines := b.Lines()
	for i := range lines.Len() {
		l := lines.At(i)
		text.Write(l.Value(src))
	}
	if b.HasClosure() {
		text.Write(b.ClosureLine.Value(src))
	}
	_, _ = w.WriteString(`<p class="raw">` + template.HTMLEscapeString(strings.TrimRight(text.String(), "\n")) + "</p>\n")
	return ast.WalkSkipChildren, nil
}

// renderHeading writes a heading two levels down (# is <h3>, at most <h6>),
// under the page's <h1> headline and <h2> title.
func renderHeading(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	level := min(n.(*ast.Heading).Level+2, 6)
	if entering {
		_, _ = fmt.Fprintf(w, "<h%d>", level)
	} else {
		_, _ = fmt.Fprintf(w, "</h%d>\n", level)
	}
	return ast.WalkContinue, nil
}

// writeCode writes s escaped in a <code> element.
func writeCode(w util.BufWriter, s string) {
	_, _ = w.WriteString("<code>" + template.HTMLEscapeString(s) + "</code>")
}

// plainText is the text of n's inline children, without markup.
func plainText(src []byte, n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Value(src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
