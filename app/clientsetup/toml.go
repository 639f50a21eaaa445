package clientsetup

// Editing Codex's config.toml in place: go-toml's parser
// (github.com/pelletier/go-toml/v2/unstable) says which lines hold which table
// header and key, so that the [mcp_servers.asktray] table can be replaced line
// for line with the rest of the file kept byte for byte, and a table defined
// in a way only a full rewrite could change (dotted keys, an inline table) is
// noticed.

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlLine is one line of a TOML document, as far as merging needs it.
type tomlLine struct {
	text   string   // the line with its line ending
	header []string // the key of a [table] or [[array of tables]] header
	array  bool     // the header is [[…]]
	key    []string // the dotted key of a key = value line
	blank  bool     // empty, or only a comment
}

// scanTOML splits src into lines and classifies them with go-toml's parser,
// which reports where each table header and key = value starts and ends: a
// header line, the first line of a key = value (later lines of a multi-line
// value are neither blank nor a key), or blank (empty, or only a comment).
func scanTOML(src string) ([]tomlLine, error) {
	raw := strings.SplitAfter(src, "\n")
	lines := make([]tomlLine, len(raw))
	starts := make([]int, len(raw))
	off := 0
	for i, text := range raw {
		lines[i], starts[i] = tomlLine{text: text, blank: true}, off
		off += len(text)
	}
	lineOf := func(offset int) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > offset }) - 1
	}
	var p unstable.Parser
	p.Reset([]byte(src))
	for p.NextExpression() {
		e := p.Expression()
		key, at := tomlKey(e)
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			ln := &lines[lineOf(at)]
			ln.header, ln.array, ln.blank = key, e.Kind == unstable.ArrayTable, false
		case unstable.KeyValue:
			first, last := lineOf(int(e.Raw.Offset)), lineOf(int(e.Raw.Offset+e.Raw.Length)-1)
			lines[first].key = key
			for i := first; i <= last; i++ {
				lines[i].blank = false
			}
		}
	}
	if err := p.Error(); err != nil {
		if perr, ok := errors.AsType[*unstable.ParserError](err); ok {
			return nil, fmt.Errorf("line %d: %s", p.Shape(p.Range(perr.Highlight)).Start.Line, perr.Message)
		}
		return nil, err
	}
	return lines, nil
}

// tomlKey returns the parts of e's key and the offset of its first part.
func tomlKey(e *unstable.Node) (key []string, at int) {
	at = -1
	for it := e.Key(); it.Next(); {
		n := it.Node()
		if at < 0 {
			at = int(n.Raw.Offset)
		}
		key = append(key, string(n.Data))
	}
	return key, at
}

// hasKeyPrefix reports whether key starts with prefix.
func hasKeyPrefix(key, prefix []string) bool {
	return len(key) >= len(prefix) && slices.Equal(key[:len(prefix)], prefix)
}

// mergeTOMLTable puts table, a [mcp_servers.asktray] table, into the TOML
// document old: in place of the lines of an existing [mcp_servers.asktray]
// table and its sub-tables (up to the next other table header, less the
// comments that lead into that one), or appended at the end. Everything else
// is kept byte for byte. A document it cannot follow, or one that defines the
// server with dotted keys or an inline table, is an error.
func mergeTOMLTable(old []byte, table string) ([]byte, error) {
	src := string(old)
	if !utf8.ValidString(src) {
		return nil, errors.New("not valid UTF-8")
	}
	bom := ""
	if rest, ok := strings.CutPrefix(src, "\ufeff"); ok {
		bom, src = "\ufeff", rest
	}
	lines, err := scanTOML(src)
	if err != nil {
		return nil, fmt.Errorf("cannot follow this TOML (%w)", err)
	}
	own, first, err := ownTOMLLines(lines)
	if err != nil {
		return nil, err
	}
	nl := "\n"
	if strings.Contains(src, "\r\n") {
		nl = "\r\n"
		table = strings.ReplaceAll(table, "\n", nl)
	}
	var b strings.Builder
	b.WriteString(bom)
	if first < 0 {
		b.WriteString(src)
		if src != "" && !strings.HasSuffix(src, "\n") {
			b.WriteString(nl) // the table's header starts a line of its own
		}
		if strings.TrimSpace(src) != "" {
			b.WriteString(nl)
		}
		b.WriteString(table)
		return []byte(b.String()), nil
	}
	for i, ln := range lines {
		if i == first {
			b.WriteString(table)
			if j := slices.Index(own[i:], false); j >= 0 && strings.TrimSpace(lines[i+j].text) != "" {
				b.WriteString(nl)
			}
		}
		if !own[i] {
			b.WriteString(ln.text)
		}
	}
	return []byte(b.String()), nil
}

// ownTOMLLines marks the lines of the [mcp_servers.asktray] table and its
// sub-tables, and returns the index of its first header (-1 if there is none).
func ownTOMLLines(lines []tomlLine) (own []bool, first int, err error) {
	target := []string{"mcp_servers", ServerName}
	own, first = make([]bool, len(lines)), -1
	var table []string
	ours := false
	giveBack := func(end int) { // comments and blank lines before end lead into what follows
		for j := end - 1; j >= 0 && own[j] && lines[j].blank; j-- {
			own[j] = false
		}
	}
	for i, ln := range lines {
		switch {
		case ln.header != nil:
			table, ours = ln.header, hasKeyPrefix(ln.header, target)
			if ln.array && slices.Equal(ln.header, target[:1]) {
				return nil, -1, fmt.Errorf("line %d: [[mcp_servers]] is an array of tables", i+1)
			}
			if ours && ln.array {
				return nil, -1, fmt.Errorf("line %d: [[%s]] is an array of tables", i+1, strings.Join(ln.header, "."))
			}
			if ours && first < 0 {
				first = i
			}
			if !ours {
				giveBack(i)
			}
		case ln.key != nil && !ours:
			full := append(slices.Clone(table), ln.key...)
			if hasKeyPrefix(full, target) || slices.Equal(full, target[:1]) {
				return nil, -1, fmt.Errorf("line %d sets %s with a dotted key or an inline table, which asktray does not rewrite",
					i+1, strings.Join(full, "."))
			}
		}
		own[i] = ours
	}
	giveBack(len(lines))
	return own, first, nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
