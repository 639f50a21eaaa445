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

// codexOwned are the keys of [mcp_servers.asktray] asktray writes; the
// person's other keys (startup_timeout_sec, disabled_tools, a
// [mcp_servers.asktray.tools.notify] table, …) stay. One of these that the
// new table lacks goes (url and http_headers when the entry now runs
// 'asktray stdio'). codexDefaults are written only when missing.
var (
	codexOwned    = []string{"url", "http_headers", "command", "args"}
	codexDefaults = []string{"tool_timeout_sec"}
)

// Codex refuses its whole config when a server has a key of the other
// transport ("bearer_token_env_var is not supported for stdio", "env is not
// supported for streamable_http", Codex 0.171), so a table that changes
// transport loses those keys too, though they were the person's.
var (
	codexHTTPOnly  = []string{"bearer_token_env_var", "env_http_headers", "oauth_resource"}
	codexStdioOnly = []string{"env", "env_vars", "cwd"}
)

// codexOwnedFor returns the keys a merge of a table with items replaces or
// removes: codexOwned, and the other transport's keys.
func codexOwnedFor(items []tomlItem) []string {
	if slices.ContainsFunc(items, func(it tomlItem) bool { return it.key == "command" }) {
		return slices.Concat(codexOwned, codexHTTPOnly)
	}
	return slices.Concat(codexOwned, codexStdioOnly)
}

// tomlItem is one key of the table asktray writes: its line, and the comment
// lines before it.
type tomlItem struct {
	key            string
	line, comments string
}

// tableItems splits table, a [mcp_servers.asktray] table of one-line keys,
// into its keys.
func tableItems(table string) ([]tomlItem, error) {
	lines, err := scanTOML(table)
	if err != nil || len(lines) == 0 || lines[0].header == nil {
		return nil, fmt.Errorf("asktray's own table: %v", err)
	}
	var items []tomlItem
	var comments strings.Builder
	for _, ln := range lines[1:] {
		switch {
		case ln.key != nil:
			items = append(items, tomlItem{key: ln.key[0], line: ln.text, comments: comments.String()})
			comments.Reset()
		case ln.blank:
			comments.WriteString(ln.text)
		}
	}
	return items, nil
}

// mergeTOMLTable puts table, a [mcp_servers.asktray] table, into the TOML
// document old. Where old has that table, the keys asktray owns (codexOwned)
// are replaced line for line in their place, missing ones are added after the
// table's last key, and every other line of the table and of its sub-tables is
// kept (a sub-table under an owned key, such as
// [mcp_servers.asktray.http_headers], goes with it). Without one, the table is
// appended at the end. Everything else is kept byte for byte. A document it
// cannot follow, or one that defines the server with dotted keys or an inline
// table, is an error.
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
	if err := checkTOMLServer(lines); err != nil {
		return nil, err
	}
	nl := "\n"
	if strings.Contains(src, "\r\n") {
		nl = "\r\n"
		table = strings.ReplaceAll(table, "\n", nl)
	}
	items, err := tableItems(table)
	if err != nil {
		return nil, err
	}
	items = keepHeaders([]byte(src), items)
	main := slices.IndexFunc(lines, func(ln tomlLine) bool {
		return !ln.array && slices.Equal(ln.header, []string{"mcp_servers", ServerName})
	})
	var b strings.Builder
	b.WriteString(bom)
	if main < 0 {
		// Sub-tables under an owned key go, as with a table.
		drop, _ := droppedTOMLLines(lines, -1, -1, codexOwnedFor(items))
		var kept strings.Builder
		for i, ln := range lines {
			if !drop[i] {
				kept.WriteString(ln.text)
			}
		}
		src = kept.String()
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
	b.WriteString(mergeTableLines(lines, main, items, nl))
	return []byte(b.String()), nil
}

// mergeTableLines is mergeTOMLTable for a document whose lines hold the
// table's header at main.
func mergeTableLines(lines []tomlLine, main int, items []tomlItem, nl string) string {
	end := main + 1 // the main table's lines are main+1 … end-1
	for end < len(lines) && lines[end].header == nil {
		end++
	}
	drop, have := droppedTOMLLines(lines, main, end, codexOwnedFor(items))
	last := lastKeyLine(lines, main, end)
	items = slices.DeleteFunc(slices.Clone(items), func(it tomlItem) bool {
		// A default the person has stays theirs (keepHeaders has seen to
		// http_headers and bearer_token_env_var).
		return have[it.key] && slices.Contains(codexDefaults, it.key)
	})
	itemFor := map[string]tomlItem{}
	for _, it := range items {
		itemFor[it.key] = it
	}
	var b strings.Builder
	written := map[string]bool{}
	for i, ln := range lines {
		if i > main && i < end && ln.key != nil {
			if it, ok := itemFor[ln.key[0]]; ok && drop[i] && !written[it.key] {
				b.WriteString(it.line) // in the old key's place
				written[it.key] = true
			}
		}
		if !drop[i] {
			b.WriteString(ln.text)
		}
		if i == last {
			if !strings.HasSuffix(ln.text, "\n") {
				b.WriteString(nl)
			}
			for _, it := range items {
				if !written[it.key] {
					b.WriteString(it.comments + it.line)
					written[it.key] = true
				}
			}
		}
	}
	return b.String()
}

// lastKeyLine is the last line of the last key of the table whose lines are
// main+1 … end-1, or main when it has none.
func lastKeyLine(lines []tomlLine, main, end int) int {
	last := main
	for i := main + 1; i < end; i++ {
		if !lines[i].blank {
			last = i
		}
	}
	return last
}

// droppedTOMLLines marks the lines a merge replaces or removes: in the main
// table (lines main+1 … end-1), the owned keys with the lines of their
// values; the sub-tables under an owned key (owned is codexOwnedFor's), less
// the comments that lead into the next table and, unless an empty line comes
// before the sub-table already, the empty lines after it. have lists the
// main table's keys.
func droppedTOMLLines(lines []tomlLine, main, end int, owned []string) (drop []bool, have map[string]bool) {
	drop, have = make([]bool, len(lines)), map[string]bool{}
	inSub, inKey := false, false
	subStart := -1
	for i, ln := range lines {
		switch {
		case ln.header != nil:
			if inSub {
				keepTail(lines, drop, subStart, i)
			}
			sub := i != main && len(ln.header) > 2 && hasKeyPrefix(ln.header, []string{"mcp_servers", ServerName}) &&
				slices.Contains(owned, ln.header[2])
			if sub && !inSub {
				subStart = i
			}
			inSub, inKey = sub, false
			drop[i] = inSub
		case i > main && i < end && ln.key != nil:
			have[ln.key[0]] = true
			inKey = slices.Contains(owned, ln.key[0])
			drop[i] = inKey
		case i > main && i < end && !ln.blank:
			drop[i] = inKey // a later line of a multi-line value
		default:
			drop[i] = inSub
		}
	}
	if inSub {
		keepTail(lines, drop, subStart, len(lines))
	}
	return drop, have
}

// keepTail keeps the comments at the end of a dropped sub-table that
// started at line start and ends before line next, and its empty lines too
// unless an empty line comes before the sub-table already.
func keepTail(lines []tomlLine, drop []bool, start, next int) {
	spaced := start > 0 && !drop[start-1] && strings.TrimSpace(lines[start-1].text) == ""
	for j := next - 1; j >= 0 && drop[j] && lines[j].blank; j-- {
		drop[j] = spaced && strings.TrimSpace(lines[j].text) == ""
	}
}

// checkTOMLServer refuses a document that defines the asktray server in a
// way a line-for-line merge cannot follow: an array of tables, or dotted keys
// or an inline table from outside its own table.
func checkTOMLServer(lines []tomlLine) error {
	target := []string{"mcp_servers", ServerName}
	var table []string
	ours := false
	for i, ln := range lines {
		switch {
		case ln.header != nil:
			table, ours = ln.header, hasKeyPrefix(ln.header, target)
			if ln.array && slices.Equal(ln.header, target[:1]) {
				return fmt.Errorf("line %d: [[mcp_servers]] is an array of tables", i+1)
			}
			if ours && ln.array {
				return fmt.Errorf("line %d: [[%s]] is an array of tables", i+1, strings.Join(ln.header, "."))
			}
		case ln.key != nil && !ours:
			full := append(slices.Clone(table), ln.key...)
			if hasKeyPrefix(full, target) || slices.Equal(full, target[:1]) {
				return fmt.Errorf("line %d sets %s with a dotted key or an inline table, which asktray does not rewrite",
					i+1, strings.Join(full, "."))
			}
		}
	}
	return nil
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
