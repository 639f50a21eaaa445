package mcpbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"
)

// argError is a bad argument; it reaches the agent as an isError result.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(format string, args ...any) error { return &argError{fmt.Sprintf(format, args...)} }

// decodeArgs decodes a tool's raw arguments into v, strictly: keys are
// case-sensitive, each may appear once (question.DecodeObject), and keys
// outside allowed are refused. encoding/json alone would match "Question"
// to question and keep the last of two duplicates, letting an argument hide
// behind another.
func decodeArgs(raw json.RawMessage, allowed []string, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	members, err := objectArgs(raw)
	if err != nil {
		return err
	}
	for _, m := range members {
		k := m.Name
		if !slices.Contains(allowed, k) {
			if i := slices.IndexFunc(allowed, func(a string) bool { return strings.EqualFold(a, k) }); i >= 0 {
				return argErrorf("%s: unknown argument; names are case-sensitive, did you mean %q?", argName(k), allowed[i])
			}
			return argErrorf("%s: unknown argument; this tool takes %s", argName(k), strings.Join(allowed, ", "))
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			// Embedded structs show up in the path; the agent knows only the argument names.
			field := strings.TrimPrefix(strings.TrimPrefix(te.Field, "askChoiceArgs."), "askCommon.")
			return argErrorf("%s: must be %s, got %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return argErrorf("arguments: %v", err)
	}
	return nil
}

// objectArgs splits raw, a tool's arguments, into its members, refusing
// anything but one JSON object (nothing at all included) and a key given
// twice, as an argError naming the key.
func objectArgs(raw json.RawMessage) ([]question.Member, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, argErrorf("arguments: %v", question.ErrNotObject)
	}
	members, err := question.DecodeObject(raw)
	if dup, ok := errors.AsType[*question.DuplicateKeyError](err); ok {
		return nil, argErrorf("%s: given twice", argName(dup.Key))
	}
	if err != nil {
		return nil, argErrorf("arguments: %v", err)
	}
	return members, nil
}

// plainName matches argument names that read unambiguously in a message.
var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// argName returns an agent's key as error messages show it: as is when it
// is a plain name, else quoted, so that a key such as "" or ": " still
// reads as the field the message is about.
func argName(k string) string {
	if plainName.MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	case "int", "int64":
		return "an integer"
	}
	return "a " + kind
}

// askCommon holds the parameters every ask tool takes.
type askCommon struct {
	TimeoutSeconds *int64 `json:"timeout_seconds"`
	Wait           *bool  `json:"wait"`
}

func (c askCommon) wait() bool { return c.Wait == nil || *c.Wait }

// deadline turns timeout_seconds into a deadline, clamped to 10 s..24 h.
func (c askCommon) deadline(now time.Time, def time.Duration) time.Time {
	if c.TimeoutSeconds != nil {
		return now.Add(question.TimeoutSeconds(*c.TimeoutSeconds))
	}
	return now.Add(question.ClampTimeout(def))
}

// ask is a decoded ask call: the question to ask and how to wait.
type ask struct {
	q      question.Question
	common askCommon
	// inputFP, when set, stands for q's details in the re-attach
	// fingerprint: a hash of the whole tool input the details render.
	inputFP string
}

type optionArg struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

func options(in []optionArg) []question.Option {
	out := make([]question.Option, len(in))
	for i, o := range in {
		out[i] = question.Option{Label: o.Label, Description: o.Description}
	}
	return out
}

func quote(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	b, _ := json.Marshal(*s)
	return b
}

// askArgs is the decoded arguments of one ask tool; toAsk turns them into
// the question to ask and how to wait.
type askArgs interface{ toAsk() ask }
