package clientsetup

// A minimal reader of TOML's line structure: enough to find a table in
// Codex's config.toml and replace its lines without a TOML dependency, and to
// notice when the table is defined in a way (dotted keys, an inline table)
// that only a full rewrite could change. Values are scanned only to keep track
// of strings, arrays and inline tables that span lines.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tomlLine is one line of a TOML document, as far as merging needs it.
type tomlLine struct {
	text   string   // the line with its line ending
	header []string // the key of a [table] or [[array of tables]] header
	array  bool     // the header is [[…]]
	key    []string // the dotted key of a key = value line
	blank  bool     // empty, or only a comment
}

// tomlState is where a scan stands between lines.
type tomlState struct {
	mlBasic, mlLiteral bool // inside a """…""" or '''…''' string
	depth              int  // [ and { opened by a value and not yet closed
}

func (s tomlState) top() bool { return !s.mlBasic && !s.mlLiteral && s.depth == 0 }

// scanTOML splits src into lines and classifies those at the top level.
func scanTOML(src string) ([]tomlLine, error) {
	var st tomlState
	raw := strings.SplitAfter(src, "\n")
	lines := make([]tomlLine, 0, len(raw))
	for n, text := range raw {
		body := strings.TrimRight(text, "\r\n")
		ln := tomlLine{text: text}
		var err error
		if st.top() {
			trim := strings.TrimLeft(body, " \t")
			switch {
			case trim == "" || trim[0] == '#':
				ln.blank = true
			case trim[0] == '[':
				ln.header, ln.array, err = parseTOMLHeader(trim)
			default:
				var rest string
				if ln.key, rest, err = splitTOMLKey(trim); err == nil {
					err = st.scan(rest)
				}
			}
		} else {
			err = st.scan(body)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		lines = append(lines, ln)
	}
	if !st.top() {
		return nil, errors.New("a string, array or inline table is not closed at the end")
	}
	return lines, nil
}

// scan follows s, part of a value, through strings, arrays and inline tables.
func (s *tomlState) scan(v string) error {
	for i := 0; i < len(v); i++ {
		switch {
		case s.mlBasic:
			if v[i] == '\\' {
				i++
			} else if strings.HasPrefix(v[i:], `"""`) {
				s.mlBasic = false
				i += 2 + quoteRun(v[i+3:], '"')
			}
		case s.mlLiteral:
			if strings.HasPrefix(v[i:], "'''") {
				s.mlLiteral = false
				i += 2 + quoteRun(v[i+3:], '\'')
			}
		case v[i] == '#':
			return nil
		case strings.HasPrefix(v[i:], `"""`):
			s.mlBasic, i = true, i+2
		case strings.HasPrefix(v[i:], "'''"):
			s.mlLiteral, i = true, i+2
		case v[i] == '"' || v[i] == '\'':
			end := stringEnd(v[i:])
			if end < 0 {
				return errors.New("a string is not closed")
			}
			i += end
		case v[i] == '[' || v[i] == '{':
			s.depth++
		case v[i] == ']' || v[i] == '}':
			if s.depth--; s.depth < 0 {
				return fmt.Errorf("unexpected %q", v[i])
			}
		}
	}
	return nil
}

// quoteRun counts the quotes q (at most 2) that may follow a closing triple quote
// and still belong to the string.
func quoteRun(v string, q byte) int {
	n := 0
	for n < len(v) && n < 2 && v[n] == q {
		n++
	}
	return n
}

// stringEnd returns the index of the quote that closes the one-line basic or
// literal string at the start of v, or -1.
func stringEnd(v string) int {
	if v[0] == '\'' {
		if j := strings.IndexByte(v[1:], '\''); j >= 0 {
			return j + 1
		}
		return -1
	}
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// parseTOMLHeader parses a [table] or [[array]] header line.
func parseTOMLHeader(line string) (key []string, array bool, err error) {
	array = strings.HasPrefix(line, "[[")
	inner := line[1:]
	if array {
		inner = line[2:]
	}
	i := 0
	for i < len(inner) && inner[i] != ']' {
		if inner[i] == '"' || inner[i] == '\'' {
			end := stringEnd(inner[i:])
			if end < 0 {
				return nil, false, errors.New("a quoted key is not closed")
			}
			i += end
		}
		i++
	}
	if i == len(inner) {
		return nil, false, errors.New("a table header is not closed")
	}
	rest := inner[i+1:]
	if array {
		var ok bool
		if rest, ok = strings.CutPrefix(rest, "]"); !ok {
			return nil, false, errors.New("an array-of-tables header is not closed")
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return nil, false, fmt.Errorf("unexpected %q after a table header", rest)
	}
	key, err = parseDottedKey(inner[:i])
	return key, array, err
}

// splitTOMLKey splits a key = value line into the key and the value text.
func splitTOMLKey(line string) (key []string, value string, err error) {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"', '\'':
			end := stringEnd(line[i:])
			if end < 0 {
				return nil, "", errors.New("a quoted key is not closed")
			}
			i += end
		case '=':
			key, err = parseDottedKey(line[:i])
			return key, line[i+1:], err
		}
	}
	return nil, "", errors.New("a line is neither a table header nor key = value")
}

// parseDottedKey parses a bare, quoted or dotted key such as a."b.c".'d'.
func parseDottedKey(s string) ([]string, error) {
	var parts []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, errors.New("a key is empty")
		}
		var part string
		switch s[0] {
		case '"', '\'':
			end := stringEnd(s)
			if end < 0 {
				return nil, errors.New("a quoted key is not closed")
			}
			part = s[1:end]
			if s[0] == '"' {
				var err error
				if part, err = strconv.Unquote(s[:end+1]); err != nil {
					return nil, fmt.Errorf("cannot read the key %s", s[:end+1])
				}
			}
			s = s[end+1:]
		default:
			n := 0
			for n < len(s) && isBareKeyByte(s[n]) {
				n++
			}
			if n == 0 {
				return nil, fmt.Errorf("unexpected %q in a key", s[0])
			}
			part, s = s[:n], s[n:]
		}
		parts = append(parts, part)
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return parts, nil
		}
		if s[0] != '.' {
			return nil, fmt.Errorf("unexpected %q in a key", s[0])
		}
		s = s[1:]
	}
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
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
		if strings.TrimSpace(src) != "" {
			if !strings.HasSuffix(src, "\n") {
				b.WriteString(nl)
			}
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
