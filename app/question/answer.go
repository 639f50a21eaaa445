package question

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// MaxNote limits the free-text note that may come with an answer or a decline.
const MaxNote = 4096

// MaxRuleID limits the id of a rule named by a response.
const MaxRuleID = 64

// MaxRuleScope limits the scope of a rule named by a response.
const MaxRuleScope = 16

// CheckResponse validates r against q and returns it with its value in the
// canonical form for q's kind:
//   - text: a JSON string;
//   - confirm: "yes" or "no" (true and false are accepted too);
//   - choice and multi_choice: a JSON array of option labels ("a" is accepted
//     for a choice; {"selected": ..., "free_text": "..."} sets Note as well);
//   - form: the content object, JSON types kept;
//   - approval: "allow" (true is accepted too);
//   - notice: "ok" (any value or none is accepted).
//
// Decline and cancel carry no value. Errors wrap ErrInvalid and name the field.
func (q *Question) CheckResponse(r Response) (Response, error) {
	if err := invalid(checkLen("note", r.Note, 0, MaxNote), checkLen("rule_id", r.RuleID, 0, MaxRuleID), checkLen("rule_scope", r.RuleScope, 0, MaxRuleScope)); err != nil {
		return r, err
	}
	switch r.Action {
	case Decline, Cancel:
		if len(bytes.TrimSpace(r.Value)) > 0 && !bytes.Equal(bytes.TrimSpace(r.Value), []byte("null")) {
			return r, invalid(fieldErr("value", "a %s carries no value", r.Action))
		}
		r.Value = nil
		return r, nil
	case Accept:
	default:
		return r, invalid(fieldErr("action", "%q is not one of accept, decline, cancel", r.Action))
	}
	if q.Kind == KindChoice || q.Kind == KindMultiChoice {
		if v, note, ok := splitSelection(r.Value); ok {
			if r.Note != "" && note != "" {
				return r, invalid(fieldErr("value.free_text", "given twice, in the value and as a note"))
			}
			r.Value = v
			if note != "" {
				r.Note = note
			}
			if err := checkLen("note", r.Note, 0, MaxNote); err != nil {
				return r, invalid(err)
			}
		}
	}
	v, err := q.checkValue(r.Value, "value")
	if err != nil {
		return r, invalid(err)
	}
	if (q.Kind == KindChoice || q.Kind == KindMultiChoice) && string(v) == "[]" && q.Kind == KindChoice {
		if !q.FreeText || r.Note == "" {
			return r, invalid(fieldErr("value", "pick one of the options"))
		}
	}
	r.Value = v
	return r, nil
}

// splitSelection unpacks {"selected": ..., "free_text": "..."}.
func splitSelection(raw json.RawMessage) (json.RawMessage, string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, "", false
	}
	var obj struct {
		Selected json.RawMessage `json:"selected"`
		FreeText string          `json:"free_text"`
	}
	fields, err := decodeObjectStrict(raw)
	if err != nil {
		return nil, "", false
	}
	for _, f := range fields {
		if f.Name != "selected" && f.Name != "free_text" {
			return nil, "", false
		}
	}
	if json.Unmarshal(raw, &obj) != nil {
		return nil, "", false
	}
	if len(obj.Selected) == 0 {
		obj.Selected = json.RawMessage("[]")
	}
	return obj.Selected, obj.FreeText, true
}

// checkValue validates an accepted value (or a default) and canonicalises it.
func (q *Question) checkValue(raw json.RawMessage, field string) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	switch q.Kind {
	case KindText:
		s, err := decodeString(raw, field)
		if err != nil {
			return nil, err
		}
		return q.checkText(s, field)
	case KindConfirm:
		switch string(raw) {
		case `"yes"`, `true`:
			return json.RawMessage(`"yes"`), nil
		case `"no"`, `false`:
			return json.RawMessage(`"no"`), nil
		}
		return nil, fieldErr(field, `must be "yes" or "no"`)
	case KindChoice, KindMultiChoice:
		return q.checkSelection(raw, field)
	case KindForm:
		s, err := ParseSchema(q.Schema)
		if err != nil {
			return nil, err
		}
		if len(raw) == 0 {
			raw = json.RawMessage("{}")
		}
		return s.ValidateContent(raw)
	case KindApproval:
		switch string(raw) {
		case `"allow"`, `true`:
			return json.RawMessage(`"allow"`), nil
		}
		if label, ok := AgentRuleChoice(raw); ok && len(q.AgentRules) > 0 {
			if !slices.ContainsFunc(q.AgentRules, func(o Option) bool { return o.Label == label }) {
				return nil, fieldErr(field+".agent_rule", "%q is not one of the agent's rules", label)
			}
			return AgentRuleValue(label), nil
		}
		if len(q.AgentRules) > 0 {
			return nil, fieldErr(field, `must be "allow" or {"agent_rule": "<label>"}; to deny, decline`)
		}
		return nil, fieldErr(field, `must be "allow"; to deny, decline`)
	default: // notice
		return json.RawMessage(`"ok"`), nil
	}
}

// AgentRuleValue is the value of an approval allowed with the agent's own
// rule label (see Question.AgentRules).
func AgentRuleValue(label string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"agent_rule": label})
	return b
}

// AgentRuleChoice returns the agent rule an approval's value picks, if any:
// the value is exactly {"agent_rule": "<label>"}.
func AgentRuleChoice(v json.RawMessage) (string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '{' {
		return "", false
	}
	fields, err := decodeObjectStrict(v)
	if err != nil || len(fields) != 1 || fields[0].Name != "agent_rule" {
		return "", false
	}
	var label string
	if json.Unmarshal(fields[0].Value, &label) != nil || label == "" {
		return "", false
	}
	return label, true
}

func decodeString(raw json.RawMessage, field string) (string, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", fieldErr(field, "must be a JSON string")
	}
	return s, nil
}

func (q *Question) checkText(s, field string) (json.RawMessage, error) {
	if !q.FreeText {
		for _, o := range q.Options {
			if o.Label == s {
				return json.Marshal(s)
			}
		}
		return nil, fieldErr(field, "%q is not one of the suggested answers, and free text is off", s)
	}
	max := MaxAnswerText
	if q.MaxLength > 0 {
		max = q.MaxLength
	}
	if !utf8.ValidString(s) {
		return nil, fieldErr(field, "not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n < q.MinLength {
		return nil, fieldErr(field, "at least %d characters, got %d", q.MinLength, n)
	} else if n > max {
		return nil, fieldErr(field, "at most %d characters, got %d", max, n)
	}
	return json.Marshal(s)
}

func (q *Question) checkSelection(raw json.RawMessage, field string) (json.RawMessage, error) {
	var labels []string
	if len(raw) > 0 && raw[0] == '"' {
		s, err := decodeString(raw, field)
		if err != nil {
			return nil, err
		}
		labels = []string{s}
	} else if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &labels) != nil {
		return nil, fieldErr(field, "must be an option label or an array of option labels")
	}
	if labels == nil {
		labels = []string{}
	}
	seen := make(map[string]bool, len(labels))
	for i, l := range labels {
		if !q.hasOption(l) {
			return nil, fieldErr(fmt.Sprintf("%s[%d]", field, i), "%q is not one of the options", l)
		}
		if seen[l] {
			return nil, fieldErr(fmt.Sprintf("%s[%d]", field, i), "%q is selected twice", l)
		}
		seen[l] = true
	}
	if q.Kind == KindChoice && len(labels) > 1 {
		return nil, fieldErr(field, "pick one option, got %d", len(labels))
	}
	if q.Kind == KindMultiChoice {
		lo, hi := q.SelectBounds()
		if len(labels) < lo {
			return nil, fieldErr(field, "pick at least %d, got %d", lo, len(labels))
		}
		if len(labels) > hi {
			return nil, fieldErr(field, "pick at most %d, got %d", hi, len(labels))
		}
	}
	return json.Marshal(labels)
}

// SelectBounds returns how many options a multi_choice takes at the least
// and at the most: min_select, and max_select or else every option. It is
// the one reading of the two fields, for the answer's check, the dialog,
// the page, the terminal, the client's own form and a handed-back
// question.
func (q *Question) SelectBounds() (lo, hi int) {
	hi = len(q.Options)
	if q.MaxSelect > 0 {
		hi = q.MaxSelect
	}
	return q.MinSelect, hi
}

func (q *Question) hasOption(label string) bool {
	for _, o := range q.Options {
		if o.Label == label {
			return true
		}
	}
	return false
}
