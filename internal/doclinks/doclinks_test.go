// Package doclinks checks the repository's Markdown: every relative link in
// README.md and docs/ names a file that exists and, when it has a #fragment,
// a heading (or an explicit anchor) in that file, as GitHub renders it.
package doclinks

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, two levels above this package.
const root = "../.."

// TestDocLinks fails for each relative link whose file or anchor is missing.
func TestDocLinks(t *testing.T) {
	files := markdownFiles(t)
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown files under %s: %v", len(files), root, files)
	}
	anchors := map[string]map[string]bool{}
	checked := 0
	for _, f := range files {
		for _, l := range links(t, f) {
			checked++
			if err := checkLink(f, l, anchors); err != "" {
				t.Errorf("%s: link %q: %s", rel(f), l, err)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d links: the link pattern no longer matches the docs", checked)
	}
}

// TestCheckLinkFails shows that the check catches a missing file, a missing
// anchor and a duplicate heading's second anchor taken for the first.
func TestCheckLinkFails(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.md")
	write(t, a, "# Title\n\n## Set-up, and more\n\n## Notes\n\n## Notes\n\n<a id=\"custom\"></a>\n")
	anchors := map[string]map[string]bool{}
	for link, want := range map[string]bool{
		"a.md":                   true,
		"a.md#title":             true,
		"a.md#set-up-and-more":   true,
		"a.md#notes":             true,
		"a.md#notes-1":           true,
		"a.md#notes-2":           false,
		"a.md#custom":            true,
		"a.md#install-and-start": false,
		"missing.md":             false,
		"#title":                 true,
		"#nope":                  false,
	} {
		err := checkLink(a, link, anchors)
		if (err == "") != want {
			t.Errorf("checkLink(%q) = %q, want ok=%v", link, err, want)
		}
	}
}

// TestSlug checks GitHub's heading anchors on the shapes the docs use.
func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"Per platform, and what CI proves": "per-platform-and-what-ci-proves",
		"`asktray doctor`":                 "asktray-doctor",
		"Windows under Wine":               "windows-under-wine",
		"Claude Code: the default (auto)":  "claude-code-the-default-auto",
		"Install & start_at login":         "install--start_at-login",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}

func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	fenceRE   = regexp.MustCompile("(?s)```.*?```")
	codeRE    = regexp.MustCompile("`[^`\n]*`")
	headingRE = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	anchorRE  = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// links returns the link targets of a Markdown file outside code.
func links(t *testing.T, f string) []string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	text := codeRE.ReplaceAllString(fenceRE.ReplaceAllString(string(b), ""), "")
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// checkLink returns "" when link, written in file from, resolves, else why
// not. External links (a scheme) are not fetched.
func checkLink(from, link string, cache map[string]map[string]bool) string {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return ""
	}
	target, frag, _ := strings.Cut(link, "#")
	path := from
	if target != "" {
		path = filepath.Join(filepath.Dir(from), filepath.FromSlash(target))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "no such file"
	}
	if frag == "" {
		return ""
	}
	if fi.IsDir() || !strings.HasSuffix(path, ".md") {
		return "an anchor into a file that is not Markdown"
	}
	a, ok := cache[path]
	if !ok {
		a = anchorsOf(path)
		cache[path] = a
	}
	if !a[frag] {
		return "no heading or anchor #" + frag + " in " + rel(path)
	}
	return ""
}

// anchorsOf lists the anchors GitHub makes for a file's headings (a
// repeated heading gets -1, -2, …) and its explicit <a id> anchors.
func anchorsOf(path string) map[string]bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	text := fenceRE.ReplaceAllString(string(b), "")
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRE.FindAllStringSubmatch(text, -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	for _, m := range anchorRE.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

// slug is GitHub's heading anchor: lower case, letters, digits, '-' and
// '_' kept, spaces to '-', everything else dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func rel(p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return r
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
