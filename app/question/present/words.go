// Package present holds what the dialog (ui) and the question page
// (app/webask) both show about a question: the line naming the client, the
// time left, the defaults, the selection and length rules with their
// messages, a form's answer built from what the person entered, what reads
// as destructive, the queue's order and line, and the headline saying who
// asks and where. The two front ends keep only their widgets and HTML, so a
// rule written here reads the same in both. It imports only the standard
// library, app/question, app/toolinput (what an agent's tool does) and
// app/ellipsis; every function only computes (none blocks), so any
// goroutine may call it.
package present

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/question"
)

// Sep separates the parts of a one-line summary such as the client line.
const Sep = "  ·  "

// ClientLine says who asks: the client's name (with its id when it has a
// title), its version and the start of its session id.
func ClientLine(c question.Client) string {
	parts := []string{c.DisplayName()}
	if c.Title != "" && c.Name != "" {
		parts[0] += " (" + c.Name + ")"
	}
	if c.Version != "" {
		parts[0] += " " + c.Version
	}
	if c.SessionID != "" {
		parts = append(parts, "session "+ShortSession(c.SessionID))
	}
	return strings.Join(parts, Sep)
}

// ShortSession shortens a session id to its first 8 telling characters,
// skipping word prefixes such as "mcp-session-" or "sess_".
func ShortSession(id string) string {
	rest := id
	for {
		i := strings.IndexAny(rest, "-_")
		if i <= 0 || strings.IndexFunc(rest[:i], func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			break
		}
		rest = rest[i+1:]
	}
	if rest == "" {
		rest = id
	}
	return ellipsis.Cut(rest, 9)
}

// TimeLeft formats the time until the deadline, rounded up to the second.
func TimeLeft(d time.Duration) string {
	if d <= 0 {
		return "time is up"
	}
	s := int((d + time.Second - 1) / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d left", s/60, s%60)
	}
	return fmt.Sprintf("%d h %02d min left", s/3600, s%3600/60)
}

// LabelOr returns label, or def when label is empty.
func LabelOr(label, def string) string {
	if label == "" {
		return def
	}
	return label
}

// CountNoun formats n with noun, adding "s" unless n is 1.
func CountNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// UpperFirst capitalises the first letter of s, turning an error message
// into a sentence for the person.
func UpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// DefaultLabels reads a choice's or a field's default: one label (or enum
// value) or an array of them. Anything else preselects nothing (nil).
func DefaultLabels(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

// DefaultText is the text a text box starts with for the default raw: a
// JSON string's value, or the JSON text itself (a number's), or "".
func DefaultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
