package webask

import (
	"regexp"
	"strings"
	"testing"
)

// TestRenderMarkdown: an agent's Markdown becomes HTML as the dialog shows
// it, with nothing live: code blocks are <pre><code> with their text, raw
// HTML is escaped text, links are their label and URL in monospace with no
// href of any scheme, images load nothing, headings sit under the page's.
func TestRenderMarkdown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, md string
		want     []string
		not      []string
	}{
		{"code block", "Run this:\n\n```sh\ngit push --force origin main\n```\n",
			[]string{"<p>Run this:</p>", `<pre><code class="language-sh">git push --force origin main` + "\n</code></pre>"}, nil},
		{"indented code keeps its text", "    if a < b && c {\n        x()\n",
			[]string{"<pre><code>if a &lt; b &amp;&amp; c {\n    x()\n</code></pre>"}, nil},
		{"emphasis and inline code", "This **rewrites** `main`, *twice*.",
			[]string{"<p>This <strong>rewrites</strong> <code>main</code>, <em>twice</em>.</p>"}, []string{"**", "`"}},
		{"list", "- one\n- two\n", []string{"<ul>\n<li>one</li>\n<li>two</li>\n</ul>"}, nil},
		{"script block", "<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script"}},
		{"inline html", "Deploy <b onmouseover=\"x()\">now</b>", []string{"Deploy &lt;b onmouseover=&#34;x()&#34;&gt;now&lt;/b&gt;"}, []string{"<b"}},
		{"html comment", "ok <!-- hidden -->", []string{"ok &lt;!-- hidden --&gt;"}, []string{"<!--"}},
		{"javascript link", "[x](javascript:alert(1))", []string{"<p>x (<code>javascript:alert(1)</code>)</p>"}, []string{"href", "<a"}},
		{"data link", "[click](data:text/html;base64,PHNjcmlwdD4=)", []string{"click (<code>data:text/html;base64,PHNjcmlwdD4=</code>)"}, []string{"href"}},
		{"vbscript link", "[y](vbscript:msgbox)", []string{"y (<code>vbscript:msgbox</code>)"}, []string{"href"}},
		{"https link is inert too", "See [the guide](https://example.com/a?b=1&c=2).",
			[]string{"See the guide (<code>https://example.com/a?b=1&amp;c=2</code>)."}, []string{"href"}},
		{"link labelled with its url", "[https://example.com](https://example.com)", []string{"<p><code>https://example.com</code></p>"}, []string{"href"}},
		{"autolink", "<https://example.com/x>", []string{"<p><code>https://example.com/x</code></p>"}, []string{"href"}},
		{"image", `![logo](https://example.com/l.png "Logo")`, []string{"[image: Logo] (<code>https://example.com/l.png</code>)"}, []string{"<img", "src="}},
		{"headings", "# Plan\n## Steps\n#### Deep", []string{"<h3>Plan</h3>", "<h4>Steps</h4>", "<h6>Deep</h6>"}, []string{"<h1", "<h2"}},
		{"escapes resolved", `a\_b\*c`, []string{"<p>a_b*c</p>"}, nil},
	} {
		got := string(renderMarkdown(c.md))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", c.name, w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: has %q:\n%s", c.name, n, got)
			}
		}
	}
}

// allowedTag matches the only elements a message may make: text, code,
// lists, quotes, headings and rules, with no attribute but a code block's
// language, a raw-HTML paragraph's class and a list's start.
var allowedTag = regexp.MustCompile(`^</?(p|pre|em|strong|ul|li|blockquote|h3|h4|h5|h6|hr|br)\s*/?>$|` +
	`^<code( class="language-[^"<>]*")?>$|^</code>$|^<p class="raw">$|^<ol( start="[0-9]+")?>$|^</ol>$`)

// FuzzRenderMarkdown: whatever the agent writes, the message makes no
// element that runs, loads or links (no <script>, <a>, <img>, no href, src
// or on… attribute): every tag is one allowedTag names.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{
		"[x](javascript:alert(1))", "<script>alert(1)</script>", "![a](x.png)", "<a href=x>y</a>", "<https://e.com>",
		"```\n<img src=x onerror=alert(1)>\n```", "<div\nonclick=x>", "[a]: javascript:x\n\n[b][a]", "`<b>`", "<?php x ?>",
		"```js\" onclick=\"x\nok\n```", "3. three\n4. four", "> quote\n\n---\n\nline  \nbreak",
	} {
		f.Add(s)
	}
	tag := regexp.MustCompile(`<[^>]*>`)
	f.Fuzz(func(t *testing.T, md string) {
		got := string(renderMarkdown(md))
		for _, m := range tag.FindAllString(got, -1) {
			if !allowedTag.MatchString(m) {
				t.Fatalf("%q renders the tag %q:\n%s", md, m, got)
			}
		}
	})
}
