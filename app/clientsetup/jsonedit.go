package clientsetup

// Editing JSON config files in place. Several clients read JSON with comments
// and trailing commas (VS Code's mcp.json and Zed's settings.json are JSONC,
// https://code.visualstudio.com/docs/languages/json#_json-with-comments), so
// files are parsed with github.com/tailscale/hujson, which keeps every byte of
// the input in its syntax tree; only the members asktray adds, replaces or
// removes change, and they are laid out with the file's own indentation.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is a JSON (or JSONC) document being edited.
type jsonDoc struct {
	root hujson.Value
	bom  bool
	unit string // one level of indentation
	nl   string // "\n", or "\r\n" when the file uses it
	// fresh: the input was empty, so the output ends in a newline
	fresh bool
	// noTrailing: never add a trailing comma, even where the file has them
	noTrailing bool
	// trailing are the lines of the input's trailing commas
	trailing []int
}

// parseJSONDoc parses old, a config file whose top level must be an object
// (empty input counts as {}). With jsonc false, comments and trailing commas
// are refused, for clients that read plain JSON only.
func parseJSONDoc(old []byte, jsonc bool) (*jsonDoc, error) {
	d := &jsonDoc{unit: "  ", nl: "\n"}
	if rest, ok := bytes.CutPrefix(old, []byte("\xef\xbb\xbf")); ok {
		d.bom, old = true, rest
	}
	if len(bytes.TrimSpace(old)) == 0 {
		old, d.fresh = []byte("{}"), true
	}
	v, err := hujson.Parse(old)
	if err != nil {
		return nil, fmt.Errorf("not JSON (%w)", err)
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	if !jsonc && !v.IsStandard() {
		return nil, errors.New("not plain JSON: it has comments or trailing commas, which this client does not read")
	}
	d.root = v
	d.trailing = trailingCommas(&v, old)
	if bytes.Contains(old, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	d.unit = indentUnit(old)
	return d, nil
}

// trailingCommas returns the lines (from 1) of src, parsed as v, that end an
// object or an array with a comma.
func trailingCommas(v *hujson.Value, src []byte) []int {
	var lines []int
	for x := range v.All() {
		var last *hujson.Value
		switch c := x.Value.(type) {
		case *hujson.Object:
			if n := len(c.Members); n > 0 {
				last = &c.Members[n-1].Value
			}
		case *hujson.Array:
			if n := len(c.Elements); n > 0 {
				last = &c.Elements[n-1]
			}
		}
		if last != nil && last.AfterExtra != nil && last.EndOffset <= len(src) {
			end := last.EndOffset + len(last.AfterExtra)
			lines = append(lines, 1+bytes.Count(src[:min(end, len(src))], []byte("\n")))
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// indentUnit returns the indentation of the first indented line of src, or
// two spaces.
func indentUnit(src []byte) string {
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		n := len(line) - len(bytes.TrimLeft(line, " \t"))
		if n > 0 && n < len(bytes.TrimRight(line, "\r")) {
			return string(line[:n])
		}
	}
	return "  "
}

// pointer returns the JSON pointer (RFC 6901) of path.
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// find returns the value at path, or nil.
func (d *jsonDoc) find(path ...string) *hujson.Value {
	return d.root.Find(pointer(path))
}

// decode decodes the value at path into out (numbers as json.Number when out
// is an any). It reports false when there is no value there.
func (d *jsonDoc) decode(out any, path ...string) (bool, error) {
	v := d.find(path...)
	if v == nil {
		return false, nil
	}
	c := v.Clone()
	c.Standardize()
	dec := json.NewDecoder(bytes.NewReader(c.Pack()))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return true, fmt.Errorf("%s: %w", strings.Join(path, "."), err)
	}
	return true, nil
}

// object returns the object at path, making the missing ones on the way; it
// fails when something on the way is not an object.
func (d *jsonDoc) object(path []string) (*hujson.Object, error) {
	for i := 0; i <= len(path); i++ {
		v := d.find(path[:i]...)
		if v == nil {
			if err := d.add(path[:i], map[string]any{}); err != nil {
				return nil, err
			}
			continue
		}
		if _, ok := v.Value.(*hujson.Object); !ok {
			return nil, fmt.Errorf("%q is not a JSON object", strings.Join(path[:i], "."))
		}
	}
	return d.find(path...).Value.(*hujson.Object), nil
}

// set puts value at path (an object member), replacing what is there and
// making missing parent objects.
func (d *jsonDoc) set(path []string, value any) error {
	if _, err := d.object(path[:len(path)-1]); err != nil {
		return err
	}
	if d.find(path...) != nil {
		raw, err := d.encode(value, len(path))
		if err != nil {
			return err
		}
		return d.patch("replace", pointer(path), raw)
	}
	return d.add(path, value)
}

// setMember sets the member key of the object at path to value: replaced
// in place when it is there and differs, added at the object's end when it
// is not there, untouched when it already is value.
func (d *jsonDoc) setMember(path []string, key string, value any) error {
	full := append(slices.Clone(path), key)
	if d.find(full...) == nil {
		return d.add(full, value)
	}
	if d.same(full, value) {
		return nil
	}
	raw, err := d.encode(value, len(full))
	if err != nil {
		return err
	}
	return d.patch("replace", pointer(full), raw)
}

// add adds value as the new member path[len-1] of the object at the rest of
// path, or appends it to the array there when the last element is "-".
func (d *jsonDoc) add(path []string, value any) error {
	if len(path) == 0 {
		return errors.New("cannot add the top level")
	}
	raw, err := d.encode(value, len(path))
	if err != nil {
		return err
	}
	if err := d.patch("add", pointer(path), raw); err != nil {
		return err
	}
	d.layOut(path)
	return nil
}

// remove removes the member or element at path, if there is one.
func (d *jsonDoc) remove(path ...string) error {
	if d.find(path...) == nil {
		return nil
	}
	return d.patch("remove", pointer(path), nil)
}

func (d *jsonDoc) patch(op, ptr string, value []byte) error {
	var p bytes.Buffer
	fmt.Fprintf(&p, `[{"op":%q,"path":%s`, op, strconv.Quote(ptr))
	if value != nil {
		p.WriteString(`,"value":`)
		p.Write(value)
	}
	p.WriteString("}]")
	if err := d.root.Patch(p.Bytes()); err != nil {
		return fmt.Errorf("edit %s: %w", ptr, err)
	}
	return nil
}

// encode returns value as indented JSON for a place depth levels deep.
func (d *jsonDoc) encode(value any, depth int) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(strings.Repeat(d.unit, depth), d.unit)
	if err := enc.Encode(value); err != nil {
		return nil, err
	}
	out := bytes.TrimRight(buf.Bytes(), "\n")
	if d.nl != "\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte(d.nl))
	}
	return out, nil
}

// layOut puts the value just added at path on a line of its own, indented,
// and the closing bracket of its parent on the next line when it was not.
func (d *jsonDoc) layOut(path []string) {
	parent := d.find(path[:len(path)-1]...)
	depth := len(path)
	var before, closing *hujson.Extra
	var last bool
	switch p := parent.Value.(type) {
	case *hujson.Object:
		i := len(p.Members) - 1
		for j, m := range p.Members {
			if m.Name.Value.(hujson.Literal).String() == path[len(path)-1] {
				i = j
			}
		}
		before, closing, last = &p.Members[i].Name.BeforeExtra, &p.AfterExtra, i == len(p.Members)-1
		if len(p.Members[i].Value.BeforeExtra) == 0 {
			p.Members[i].Value.BeforeExtra = hujson.Extra(" ")
		}
		if last && i > 0 && p.Members[i-1].Value.AfterExtra != nil && !d.noTrailing {
			p.Members[i].Value.AfterExtra = hujson.Extra{} // keep the trailing comma
		}
	case *hujson.Array:
		i := len(p.Elements) - 1
		before, closing, last = &p.Elements[i].BeforeExtra, &p.AfterExtra, true
		if i > 0 && p.Elements[i-1].AfterExtra != nil && !d.noTrailing {
			p.Elements[i].AfterExtra = hujson.Extra{}
		}
	default:
		return
	}
	indent := strings.Repeat(d.unit, depth)
	// The slices share the parsed input's memory: build new ones.
	b := slices.Clone(bytes.TrimRight(*before, " \t"))
	if last {
		// A comment on the line of the member before stays on that line.
		if i := bytes.IndexByte(*closing, '\n'); i > 0 && len(bytes.TrimSpace((*closing)[:i])) > 0 {
			b = append(slices.Clone((*closing)[:i]), b...)
			*closing = slices.Clone((*closing)[i:])
		}
	}
	if !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, d.nl...)
	}
	*before = append(b, indent...)
	if last && !bytes.Contains(*closing, []byte("\n")) {
		*closing = append(slices.Clone(bytes.TrimRight(*closing, " \t")), (d.nl + strings.Repeat(d.unit, depth-1))...)
	}
}

// bytes returns the document as it is now, with its byte order mark.
func (d *jsonDoc) bytes() []byte {
	b := d.root.Pack()
	if d.nl == "\r\n" {
		b = lfToCRLF(b)
	}
	if d.bom {
		b = append([]byte("\xef\xbb\xbf"), b...)
	}
	if d.fresh {
		b = append(b, d.nl...)
	}
	return b
}

// same reports whether the value at path is value, as JSON (formatting,
// comments and key order aside).
func (d *jsonDoc) same(path []string, value any) bool {
	var have any
	if ok, err := d.decode(&have, path...); !ok || err != nil {
		return false
	}
	want, err := json.Marshal(value)
	if err != nil {
		return false
	}
	var w any
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.UseNumber()
	if dec.Decode(&w) != nil {
		return false
	}
	return reflect.DeepEqual(have, w)
}

// lfToCRLF turns every line feed not after a carriage return into CRLF, for
// a file that uses CRLF.
func lfToCRLF(b []byte) []byte {
	out := make([]byte, 0, len(b)+16)
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}
