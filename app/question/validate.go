package question

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits on what a question may hold. Errors name the field and the limit.
const (
	MaxMessage      = 4096
	MaxHeader       = 64
	MaxLabel        = 100
	MaxDescription  = 512
	MaxPlaceholder  = 200
	MaxAnswerText   = 65536
	MaxSuggestions  = 3
	MinChoices      = 2
	MaxChoices      = 20
	MaxClientField  = 200
	MaxTool         = 64
	MaxAction       = 200
	MaxDetails      = 65536
	MaxAgentReason  = 2048
	MaxInput        = 256 << 10 // bytes of an approval's tool input
	MaxCwd          = 4096
	MaxAgentMode    = 64
	MaxHost         = 255
	MaxRiskWhy      = 1024
	maxButtonLabels = 40
)

// FieldError is a validation failure of one named field.
type FieldError struct {
	Field string // the field's name, e.g. "options[2].label"
	Msg   string // what is wrong, e.g. "at most 100 characters, got 120"
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ErrInvalid is wrapped by every validation error, so callers can tell bad
// input from faults with errors.Is.
var ErrInvalid = errors.New("invalid")

type invalidError struct{ errs []error }

func (e *invalidError) Error() string {
	if len(e.errs) == 1 {
		return e.errs[0].Error()
	}
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return fmt.Sprintf("%d problems: %s", len(e.errs), strings.Join(msgs, "; "))
}

func (e *invalidError) Unwrap() []error { return append([]error{ErrInvalid}, e.errs...) }

func invalid(errs ...error) error {
	var kept []error
	for _, err := range errs {
		if err != nil {
			kept = append(kept, err)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return &invalidError{errs: kept}
}

func checkLen(field, s string, min, max int) error {
	n := utf8.RuneCountInString(s)
	if !utf8.ValidString(s) {
		return fieldErr(field, "not valid UTF-8")
	}
	if n < min {
		if min == 1 {
			return fieldErr(field, "must not be empty")
		}
		return fieldErr(field, "at least %d characters, got %d", min, n)
	}
	if n > max {
		return fieldErr(field, "at most %d characters, got %d", max, n)
	}
	return nil
}

// Validate checks q against the limits for its kind. It reports every
// problem it finds in one error that wraps ErrInvalid and a *FieldError for
// each; it does not look at ID, Created, Deadline or State.
func (q *Question) Validate() error {
	if !q.Kind.Valid() {
		return invalid(fieldErr("kind", "%q is not one of text, confirm, choice, multi_choice, form, approval, notice", q.Kind))
	}
	if !q.Origin.Valid() {
		return invalid(fieldErr("origin", "%q is not one of ask, approval, permission, agent_question, agent_notice", q.Origin))
	}
	errs := []error{
		checkLen("message", q.Message, 1, MaxMessage),
		checkLen("header", q.Header, 0, MaxHeader),
		checkLen("client.name", q.Client.Name, 0, MaxClientField),
		checkLen("client.version", q.Client.Version, 0, MaxClientField),
		checkLen("client.session_id", q.Client.SessionID, 0, MaxClientField),
		checkLen("client.title", q.Client.Title, 0, MaxClientField),
		checkLen("placeholder", q.Placeholder, 0, MaxPlaceholder),
		checkLen("yes_label", q.YesLabel, 0, maxButtonLabels),
		checkLen("no_label", q.NoLabel, 0, maxButtonLabels),
		checkLen("tool", q.Tool, 0, MaxTool),
		checkLen("action", q.Action, 0, MaxAction),
		checkLen("details", q.Details, 0, MaxDetails),
		checkLen("agent_reason", q.AgentReason, 0, MaxAgentReason),
		checkLen("cwd", q.Cwd, 0, MaxCwd),
		checkLen("agent_mode", q.AgentMode, 0, MaxAgentMode),
		checkLen("host", q.Host, 0, MaxHost),
		checkLen("risk_why", q.RiskWhy, 0, MaxRiskWhy),
		q.validateInput(),
	}
	errs = append(errs, q.validateOptions()...)
	errs = append(errs, q.validateAgentRules()...)
	errs = append(errs, q.validateKind()...)
	if err := invalid(errs...); err != nil {
		return err
	}
	if len(q.Default) > 0 && q.Kind != KindNotice {
		v, err := q.checkValue(q.Default, "default")
		if err != nil {
			return invalid(err)
		}
		if q.Kind == KindConfirm && q.Destructive && string(v) == `"yes"` {
			return invalid(fieldErr("default", `"yes" is not allowed with destructive: a destructive confirmation never pre-selects yes; omit default or use "no"`))
		}
	}
	return nil
}

// validateInput checks an approval's tool input: a JSON object, at most
// MaxInput bytes.
func (q *Question) validateInput() error {
	switch {
	case len(q.Input) == 0:
		return nil
	case len(q.Input) > MaxInput:
		return fieldErr("input", "at most %d bytes, got %d", MaxInput, len(q.Input))
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(q.Input, &m) != nil || m == nil {
		return fieldErr("input", "must be a JSON object")
	}
	return nil
}

// validateAgentRules checks an approval's agent rules like options: at
// most MaxChoices, labels present, short and distinct.
func (q *Question) validateAgentRules() []error {
	var errs []error
	if n := len(q.AgentRules); n > MaxChoices {
		errs = append(errs, fieldErr("agent_rules", "at most %d, got %d", MaxChoices, n))
	}
	seen := make(map[string]bool, len(q.AgentRules))
	for i, o := range q.AgentRules {
		f := fmt.Sprintf("agent_rules[%d]", i)
		errs = append(errs, checkLen(f+".label", o.Label, 1, MaxLabel), checkLen(f+".description", o.Description, 0, MaxDescription))
		if seen[o.Label] {
			errs = append(errs, fieldErr(f+".label", "%q repeats; labels must be distinct", o.Label))
		}
		seen[o.Label] = true
	}
	return errs
}

func (q *Question) validateOptions() []error {
	var errs []error
	seen := make(map[string]int, len(q.Options))
	for i, o := range q.Options {
		f := fmt.Sprintf("options[%d]", i)
		errs = append(errs, checkLen(f+".label", o.Label, 1, MaxLabel), checkLen(f+".description", o.Description, 0, MaxDescription))
		if j, dup := seen[o.Label]; dup && o.Label != "" {
			errs = append(errs, fieldErr(f+".label", "%q repeats options[%d].label; labels must be distinct", o.Label, j))
		}
		seen[o.Label] = i
	}
	return errs
}

// kindOnly lists fields that only some kinds may set.
var kindOnly = []struct {
	field string
	set   func(q *Question) bool
	kinds []Kind
}{
	{"schema", func(q *Question) bool { return len(q.Schema) > 0 }, []Kind{KindForm}},
	{"multiline", func(q *Question) bool { return q.Multiline }, []Kind{KindText}},
	{"min_length", func(q *Question) bool { return q.MinLength != 0 }, []Kind{KindText}},
	{"max_length", func(q *Question) bool { return q.MaxLength != 0 }, []Kind{KindText}},
	{"min_select", func(q *Question) bool { return q.MinSelect != 0 }, []Kind{KindMultiChoice}},
	{"max_select", func(q *Question) bool { return q.MaxSelect != 0 }, []Kind{KindMultiChoice}},
	{"destructive", func(q *Question) bool { return q.Destructive }, []Kind{KindConfirm, KindApproval}},
	{"yes_label", func(q *Question) bool { return q.YesLabel != "" }, []Kind{KindConfirm}},
	{"no_label", func(q *Question) bool { return q.NoLabel != "" }, []Kind{KindConfirm}},
	{"risk", func(q *Question) bool { return q.Risk != "" }, []Kind{KindApproval}},
	{"action", func(q *Question) bool { return q.Action != "" }, []Kind{KindApproval}},
	{"details", func(q *Question) bool { return q.Details != "" }, []Kind{KindApproval}},
	{"agent_reason", func(q *Question) bool { return q.AgentReason != "" }, []Kind{KindApproval}},
	{"agent_rules", func(q *Question) bool { return len(q.AgentRules) > 0 }, []Kind{KindApproval}},
	{"input", func(q *Question) bool { return len(q.Input) > 0 }, []Kind{KindApproval}},
	{"cwd", func(q *Question) bool { return q.Cwd != "" }, []Kind{KindApproval}},
	{"agent_mode", func(q *Question) bool { return q.AgentMode != "" }, []Kind{KindApproval}},
	{"risk_why", func(q *Question) bool { return q.RiskWhy != "" }, []Kind{KindApproval}},
	{"free_text", func(q *Question) bool { return q.FreeText }, []Kind{KindText, KindChoice, KindMultiChoice}},
	{"options", func(q *Question) bool { return len(q.Options) > 0 }, []Kind{KindText, KindChoice, KindMultiChoice}},
}

func (q *Question) validateKind() []error {
	var errs []error
	for _, ko := range kindOnly {
		if ko.set(q) && !slices.Contains(ko.kinds, q.Kind) {
			names := make([]string, len(ko.kinds))
			for i, k := range ko.kinds {
				names[i] = string(k)
			}
			errs = append(errs, fieldErr(ko.field, "not allowed for %s questions, only for %s", q.Kind, strings.Join(names, ", ")))
		}
	}
	switch q.Kind {
	case KindText:
		errs = append(errs, q.validateText()...)
	case KindChoice, KindMultiChoice:
		if n := len(q.Options); n < MinChoices || n > MaxChoices {
			errs = append(errs, fieldErr("options", "between %d and %d options, got %d", MinChoices, MaxChoices, n))
		}
		if q.Kind == KindMultiChoice {
			errs = append(errs, q.validateSelectBounds()...)
		}
	case KindForm:
		if len(q.Schema) == 0 {
			errs = append(errs, fieldErr("schema", "a form needs a requestedSchema"))
		} else if _, err := ParseSchema(q.Schema); err != nil {
			errs = append(errs, err)
		}
	case KindApproval:
		if q.Risk != "" && q.Risk != RiskLow && q.Risk != RiskMedium && q.Risk != RiskHigh {
			errs = append(errs, fieldErr("risk", "%q is not one of low, medium, high", q.Risk))
		}
	}
	return errs
}

func (q *Question) validateText() []error {
	var errs []error
	if n := len(q.Options); n > MaxSuggestions {
		errs = append(errs, fieldErr("options", "at most %d suggested answers, got %d", MaxSuggestions, n))
	}
	if q.MinLength < 0 || q.MinLength > MaxAnswerText {
		errs = append(errs, fieldErr("min_length", "must be between 0 and %d, got %d", MaxAnswerText, q.MinLength))
	}
	if q.MaxLength < 0 || q.MaxLength > MaxAnswerText {
		errs = append(errs, fieldErr("max_length", "must be between 0 and %d, got %d", MaxAnswerText, q.MaxLength))
	}
	if q.MaxLength > 0 && q.MinLength > q.MaxLength {
		errs = append(errs, fieldErr("min_length", "%d is above max_length %d", q.MinLength, q.MaxLength))
	}
	if len(q.Options) == 0 && !q.FreeText {
		errs = append(errs, fieldErr("free_text", "must be on when there are no suggested answers"))
	}
	return errs
}

func (q *Question) validateSelectBounds() []error {
	var errs []error
	n := len(q.Options)
	if q.MinSelect < 0 || q.MinSelect > n {
		errs = append(errs, fieldErr("min_select", "must be between 0 and the %d options, got %d", n, q.MinSelect))
	}
	if q.MaxSelect < 0 || q.MaxSelect > n {
		errs = append(errs, fieldErr("max_select", "must be between 0 and the %d options, got %d", n, q.MaxSelect))
	}
	if q.MaxSelect > 0 && q.MinSelect > q.MaxSelect {
		errs = append(errs, fieldErr("min_select", "%d is above max_select %d", q.MinSelect, q.MaxSelect))
	}
	return errs
}
