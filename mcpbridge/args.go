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
// case-sensitive, each may appear once, and keys outside allowed are
// refused. encoding/json alone would match "Question" to question and keep
// the last of two duplicates, letting an argument hide behind another.
func decodeArgs(raw json.RawMessage, allowed []string, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return argErrorf("arguments: must be a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return argErrorf("arguments: not valid JSON: %v", err)
		}
		k := kt.(string)
		if seen[k] {
			return argErrorf("%s: given twice", argName(k))
		}
		seen[k] = true
		if !slices.Contains(allowed, k) {
			if i := slices.IndexFunc(allowed, func(a string) bool { return strings.EqualFold(a, k) }); i >= 0 {
				return argErrorf("%s: unknown argument; names are case-sensitive, did you mean %q?", argName(k), allowed[i])
			}
			return argErrorf("%s: unknown argument; this tool takes %s", argName(k), strings.Join(allowed, ", "))
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return argErrorf("%s: not valid JSON: %v", k, err)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			// The embedded askCommon shows up in the path; the agent knows only the argument names.
			field := strings.TrimPrefix(te.Field, "askCommon.")
			return argErrorf("%s: must be %s, got %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return argErrorf("arguments: %v", err)
	}
	return nil
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

var commonNames = []string{"timeout_seconds", "wait"}

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

// parseAsk decodes the arguments of the ask tool name.
func parseAsk(name string, raw json.RawMessage) (ask, error) {
	var a ask
	q := &a.q
	switch name {
	case ToolAskUser:
		var in struct {
			askCommon
			Question string      `json:"question"`
			Header   string      `json:"header"`
			Options  []optionArg `json:"options"`
			FreeText *bool       `json:"free_text"`
			Default  *string     `json:"default"`
		}
		if err := decodeArgs(raw, append([]string{"question", "header", "options", "free_text", "default"}, commonNames...), &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: question.KindText, Message: in.Question, Header: in.Header, Options: options(in.Options),
			FreeText: in.FreeText == nil || *in.FreeText, Default: quote(in.Default)}
		a.common = in.askCommon
	case ToolAskConfirm:
		var in struct {
			askCommon
			Question    string  `json:"question"`
			Header      string  `json:"header"`
			Default     *string `json:"default"`
			Destructive bool    `json:"destructive"`
			YesLabel    string  `json:"yes_label"`
			NoLabel     string  `json:"no_label"`
		}
		if err := decodeArgs(raw, append([]string{"question", "header", "default", "destructive", "yes_label", "no_label"}, commonNames...), &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: question.KindConfirm, Message: in.Question, Header: in.Header, Default: quote(in.Default),
			Destructive: in.Destructive, YesLabel: in.YesLabel, NoLabel: in.NoLabel}
		a.common = in.askCommon
	case ToolAskChoice, ToolAskMultiSelect:
		var in struct {
			askCommon
			Question      string          `json:"question"`
			Header        string          `json:"header"`
			Options       []optionArg     `json:"options"`
			FreeText      bool            `json:"free_text"`
			Default       json.RawMessage `json:"default"`
			MinSelections int             `json:"min_selections"`
			MaxSelections int             `json:"max_selections"`
		}
		names := []string{"question", "header", "options", "free_text", "default"}
		kind := question.KindChoice
		if name == ToolAskMultiSelect {
			names = append(names, "min_selections", "max_selections")
			kind = question.KindMultiChoice
		}
		if err := decodeArgs(raw, append(names, commonNames...), &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: kind, Message: in.Question, Header: in.Header, Options: options(in.Options),
			FreeText: in.FreeText, Default: in.Default, MinSelect: in.MinSelections, MaxSelect: in.MaxSelections}
		a.common = in.askCommon
	case ToolAskText:
		var in struct {
			askCommon
			Question    string  `json:"question"`
			Header      string  `json:"header"`
			Placeholder string  `json:"placeholder"`
			Multiline   bool    `json:"multiline"`
			Default     *string `json:"default"`
			MinLength   int     `json:"min_length"`
			MaxLength   int     `json:"max_length"`
		}
		if err := decodeArgs(raw, append([]string{"question", "header", "placeholder", "multiline", "default", "min_length", "max_length"}, commonNames...), &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: question.KindText, Message: in.Question, Header: in.Header, Placeholder: in.Placeholder, FreeText: true,
			Multiline: in.Multiline, Default: quote(in.Default), MinLength: in.MinLength, MaxLength: in.MaxLength}
		a.common = in.askCommon
	case ToolAskForm:
		var in struct {
			askCommon
			Message         string          `json:"message"`
			Header          string          `json:"header"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if err := decodeArgs(raw, append([]string{"message", "header", "requestedSchema"}, commonNames...), &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: question.KindForm, Message: in.Message, Header: in.Header, Schema: in.RequestedSchema}
		a.common = in.askCommon
	case ToolApproval:
		var in struct {
			askCommon
			Action  string        `json:"action"`
			Details string        `json:"details"`
			Risk    question.Risk `json:"risk"`
			Reason  string        `json:"reason"`
		}
		if err := decodeArgs(raw, append([]string{"action", "details", "risk", "reason"}, commonNames...), &in); err != nil {
			return a, err
		}
		if in.Risk == "" {
			in.Risk = question.RiskMedium
		}
		*q = question.Question{Kind: question.KindApproval, Message: in.Action, Action: in.Action, Details: in.Details,
			Risk: in.Risk, AgentReason: in.Reason}
		a.common = in.askCommon
	case ToolNotify:
		var in struct {
			Message        string `json:"message"`
			Header         string `json:"header"`
			TimeoutSeconds *int64 `json:"timeout_seconds"`
		}
		if err := decodeArgs(raw, []string{"message", "header", "timeout_seconds"}, &in); err != nil {
			return a, err
		}
		*q = question.Question{Kind: question.KindNotice, Message: in.Message, Header: in.Header}
		a.common = askCommon{TimeoutSeconds: in.TimeoutSeconds, Wait: new(false)}
		if in.TimeoutSeconds == nil {
			a.common.TimeoutSeconds = new(int64(3600))
		}
	default:
		return a, fmt.Errorf("no ask tool %q", name)
	}
	return a, nil
}

// fieldNames maps the question model's field names to the tool's argument
// names, so that validation errors name what the agent sent.
var fieldNames = map[string]map[string]string{
	"*":         {"message": "question", "options": "options", "min_select": "min_selections", "max_select": "max_selections", "schema": "requestedSchema"},
	ToolAskForm: {"message": "message"},
	// An approval's message is its action; an empty action fails as "message".
	ToolApproval: {"message": "action", "agent_reason": "reason"},
	// A permission prompt's message and action are Claude Code's tool name.
	ToolPermission: {"message": "tool_name", "action": "tool_name"},
	ToolNotify:     {"message": "message"},
}

// selectWords finds the model's names for selection bounds inside a message.
var selectWords = regexp.MustCompile(`\b(min|max)_select\b`)

// renameField rewrites the fields named in a validation message for tool.
func renameField(tool, msg string) string {
	msg = selectWords.ReplaceAllString(msg, "${1}_selections")
	for _, m := range []map[string]string{fieldNames[tool], fieldNames["*"]} {
		for from, to := range m {
			if rest, ok := strings.CutPrefix(msg, from); ok && (rest == "" || rest[0] == ':' || rest[0] == '[' || rest[0] == '.') {
				return to + rest
			}
		}
	}
	return msg
}
