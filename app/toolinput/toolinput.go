// Package toolinput renders an agent tool's input (Claude Code's Bash, Edit,
// Write, ... or any other tool) as Markdown for the person who approves it,
// and fingerprints the input so that a retried request can be recognised.
//
// The rule it keeps: everything the person approves is shown. A tool's
// known keys are rendered specially (a command as a shell block, an edit as
// a diff); every other key is listed under that as a compact key: value
// list, long values folded into their own block, none left out. It uses
// the standard library only (and its leaf app/ellipsis), so the MCP bridge
// and the agent hooks share it. Its functions only compute (none blocks);
// any goroutine may call them.
package toolinput

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Limits of a rendering, in characters (runes). They match the question
// model's limits on an approval's details and reason.
const (
	MaxDetails = 65536
	MaxReason  = 2048
	// MaxShown is the biggest single piece of an input shown in full; a
	// diff, a file body or a long value beyond it is cut with a note
	// saying how much more there is.
	MaxShown = 20000
)

// Rendered is a tool input as the person reads it.
type Rendered struct {
	// Details is Markdown: the tool's own rendering, then every other key
	// of the input. At most MaxDetails characters.
	Details string
	// Reason is the model's own description of why (Bash's description),
	// or "". At most MaxReason characters; a longer description is listed
	// with the other keys instead.
	Reason string
	// Cut reports that Details leaves part of the input out (a piece
	// beyond MaxShown, parts beyond MaxDetails): the person cannot see all
	// of what an allow would run (present.Unseen).
	Cut bool
}

// Decode reads a tool input, keeping numbers as written (json.Number). It
// returns an error for anything but a JSON object.
func Decode(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var in map[string]any
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("tool input: %w", err)
	}
	if in == nil {
		return nil, fmt.Errorf("tool input: must be a JSON object")
	}
	return in, nil
}

// RenderJSON renders the raw input of tool; an input that is not a JSON
// object is shown as it is, in a code block. Shown as JSON, the input keeps
// the agent's key order.
func RenderJSON(tool string, raw json.RawMessage) Rendered {
	in, err := Decode(raw)
	if err != nil {
		return finish(Rendered{Details: fence("", string(raw), MaxDetails-64)})
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, raw, "", "  ") != nil {
		return finish(render(tool, in, ""))
	}
	return finish(render(tool, in, pretty.String()))
}

// Render renders tool's input for the person: Claude Code's built-in tools
// (Bash, Edit, MultiEdit, Write, WebFetch) their own way followed by every
// key their renderer did not show, any other tool as indented JSON (or, when
// that is too long, as the key: value list, so that every key is named).
func Render(tool string, input map[string]any) Rendered {
	return finish(render(tool, input, ""))
}

// render is Render; asJSON, when set, is how to show input as JSON (the
// agent's own key order), else its keys are sorted.
func render(tool string, input map[string]any, asJSON string) Rendered {
	shown := map[string]bool{}
	var blocks []string
	var reason string
	if r, ok := renderers[tool]; ok && input != nil {
		blocks, reason = r(input, shown)
	}
	if len(blocks) == 0 {
		if asJSON == "" {
			asJSON = indentJSON(input)
		}
		if js := asJSON; utf8.RuneCountInString(js) <= MaxDetails-16 {
			return Rendered{Details: fence("json", js, MaxDetails)}
		}
		return Rendered{Details: fit(nil, others(input, nil))}
	}
	if utf8.RuneCountInString(reason) > MaxReason {
		delete(shown, "description") // listed in full with the other keys
		reason = ""
	}
	return Rendered{Details: fit(blocks, others(input, shown)), Reason: reason}
}

// Fingerprint identifies a request to run tool with input: a hash of the
// tool's name and the input's canonical JSON (keys sorted, insignificant
// space removed, numbers as written), so that two inputs differing in any
// key, shown or not, differ. Input that is not valid JSON is hashed as it
// is.
func Fingerprint(tool string, input json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(canonical(input))
	return hex.EncodeToString(h.Sum(nil))
}

// canonical re-encodes raw with sorted keys and no HTML escaping.
func canonical(raw json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return raw
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// indentJSON is v as indented JSON, with &, < and > as they are.
func indentJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
