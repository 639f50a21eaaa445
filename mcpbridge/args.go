package mcpbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/asktray/asktray/app/question"
	grade "github.com/asktray/asktray/app/risk"
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
	d := def
	if c.TimeoutSeconds != nil {
		d = time.Duration(*c.TimeoutSeconds) * time.Second
		if *c.TimeoutSeconds > int64(question.MaxTimeout/time.Second) {
			d = question.MaxTimeout
		}
	}
	return now.Add(question.ClampTimeout(d))
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

// declaredArgs maps each tool to the property names of its declared input
// schema, sorted, so that what a call may send is exactly what tools/list
// tells the agent it takes.
var declaredArgs = sync.OnceValue(func() map[string][]string {
	m := make(map[string][]string, len(ToolNames))
	for _, t := range Tools() {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err)) // static schemas only
		}
		m[t.Name] = slices.Sorted(maps.Keys(schema.Properties))
	}
	return m
})

// decodeToolArgs decodes raw strictly (decodeArgs) into v, allowing the
// argument names tool declares. It may be called from any goroutine.
func decodeToolArgs(tool string, raw json.RawMessage, v any) error {
	return decodeArgs(raw, declaredArgs()[tool], v)
}

// parseAsk decodes the arguments of the ask tool name. It does not block and
// may be called from any goroutine.
func parseAsk(name string, raw json.RawMessage) (ask, error) {
	spec, ok := specOf(name)
	if !ok || spec.args == nil {
		return ask{}, fmt.Errorf("no ask tool %q", name)
	}
	newArgs := spec.args
	in := newArgs()
	if err := decodeToolArgs(name, raw, in); err != nil {
		return ask{}, err
	}
	return in.toAsk(), nil
}

type askUserArgs struct {
	askCommon
	Question string      `json:"question"`
	Header   string      `json:"header"`
	Options  []optionArg `json:"options"`
	FreeText *bool       `json:"free_text"`
	Default  *string     `json:"default"`
}

func (in *askUserArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindText, Message: in.Question, Header: in.Header,
		Options: options(in.Options), FreeText: in.FreeText == nil || *in.FreeText, Default: quote(in.Default)}}
}

type askConfirmArgs struct {
	askCommon
	Question    string  `json:"question"`
	Header      string  `json:"header"`
	Default     *string `json:"default"`
	Destructive bool    `json:"destructive"`
	YesLabel    string  `json:"yes_label"`
	NoLabel     string  `json:"no_label"`
}

func (in *askConfirmArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindConfirm, Message: in.Question, Header: in.Header,
		Default: quote(in.Default), Destructive: in.Destructive, YesLabel: in.YesLabel, NoLabel: in.NoLabel}}
}

// askChoiceArgs is ask_choice's arguments; ask_multi_select adds the
// selection bounds, which ask_choice does not declare and so refuses.
type askChoiceArgs struct {
	askCommon
	Question string          `json:"question"`
	Header   string          `json:"header"`
	Options  []optionArg     `json:"options"`
	FreeText bool            `json:"free_text"`
	Default  json.RawMessage `json:"default"`
}

func (in *askChoiceArgs) question(kind question.Kind) question.Question {
	return question.Question{Kind: kind, Message: in.Question, Header: in.Header, Options: options(in.Options),
		FreeText: in.FreeText, Default: in.Default}
}

func (in *askChoiceArgs) toAsk() ask {
	return ask{common: in.askCommon, q: in.question(question.KindChoice)}
}

type askMultiSelectArgs struct {
	askChoiceArgs
	MinSelections int `json:"min_selections"`
	MaxSelections int `json:"max_selections"`
}

func (in *askMultiSelectArgs) toAsk() ask {
	q := in.question(question.KindMultiChoice)
	q.MinSelect, q.MaxSelect = in.MinSelections, in.MaxSelections
	return ask{common: in.askCommon, q: q}
}

type askTextArgs struct {
	askCommon
	Question    string  `json:"question"`
	Header      string  `json:"header"`
	Placeholder string  `json:"placeholder"`
	Multiline   bool    `json:"multiline"`
	Default     *string `json:"default"`
	MinLength   int     `json:"min_length"`
	MaxLength   int     `json:"max_length"`
}

func (in *askTextArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindText, Message: in.Question, Header: in.Header,
		Placeholder: in.Placeholder, FreeText: true, Multiline: in.Multiline, Default: quote(in.Default),
		MinLength: in.MinLength, MaxLength: in.MaxLength}}
}

type askFormArgs struct {
	askCommon
	Message         string          `json:"message"`
	Header          string          `json:"header"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func (in *askFormArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindForm, Message: in.Message, Header: in.Header,
		Schema: in.RequestedSchema}}
}

type approvalArgs struct {
	askCommon
	Action  string        `json:"action"`
	Details string        `json:"details"`
	Risk    question.Risk `json:"risk"`
	Reason  string        `json:"reason"`
}

func (in *approvalArgs) toAsk() ask {
	risk := in.Risk
	if risk == "" {
		risk = question.RiskMedium
	}
	q := question.Question{Kind: question.KindApproval, Message: in.Action, Action: in.Action,
		Details: in.Details, Risk: risk, AgentReason: in.Reason}
	// What the details say it does can raise the agent's own grade, never
	// lower it.
	if g := grade.Text(in.Action + "\n" + in.Details); g.Risk == question.RiskHigh {
		q.Risk, q.RiskWhy = g.Risk, clipRunes(g.Why(), question.MaxRiskWhy)
	}
	return ask{common: in.askCommon, q: q}
}

// notifyArgs is notify's arguments: it never waits, and its notice stays
// open for an hour unless timeout_seconds says otherwise.
type notifyArgs struct {
	Message        string `json:"message"`
	Header         string `json:"header"`
	TimeoutSeconds *int64 `json:"timeout_seconds"`
}

func (in *notifyArgs) toAsk() ask {
	a := ask{q: question.Question{Kind: question.KindNotice, Message: in.Message, Header: in.Header},
		common: askCommon{TimeoutSeconds: in.TimeoutSeconds, Wait: new(false)}}
	if in.TimeoutSeconds == nil {
		a.common.TimeoutSeconds = new(int64(3600))
	}
	return a
}

// commonFields maps the question model's field names to the argument names
// every ask tool uses; a tool's spec (toolSpec.fields) names its own.
var commonFields = map[string]string{"message": "question", "options": "options", "min_select": "min_selections", "max_select": "max_selections", "schema": "requestedSchema"}

// selectWords finds the model's names for selection bounds inside a message.
var selectWords = regexp.MustCompile(`\b(min|max)_select\b`)

// renameField rewrites the fields named in a validation message for tool.
func renameField(tool, msg string) string {
	msg = selectWords.ReplaceAllString(msg, "${1}_selections")
	spec, _ := specOf(tool)
	for _, m := range []map[string]string{spec.fields, commonFields} {
		for from, to := range m {
			if rest, ok := strings.CutPrefix(msg, from); ok && (rest == "" || rest[0] == ':' || rest[0] == '[' || rest[0] == '.') {
				return to + rest
			}
		}
	}
	return msg
}
