package mcpbridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// Property names of the forms built from questions.
const (
	propConfirm  = "confirm"
	propChoice   = "choice"
	propChoices  = "choices"
	propFreeText = "free_text"
	propAnswer   = "answer"
)

// titledEnumsSince is the first protocol version with titled enums
// (oneOf/anyOf of const and title) and multi-select arrays (SEP-1330);
// older clients get enum plus enumNames and no multi-select.
const titledEnumsSince = "2025-11-25"

// secretWords, matched against text lowercased with everything but letters
// and digits removed, mark a question that may ask for a secret. MCP allows
// passwords, API keys, tokens and payment data only through URL-mode
// elicitation, never in a form, so such a question is never sent to the
// client's form (see asksSecret). Matching is deliberately broad: a false
// match only means the question is answered on the desktop or the page.
var secretWords = []string{
	"password", "passphrase", "passwd", "passcode", "secret", "token",
	"apikey", "accesskey", "privatekey", "credential", "creditcard",
	"cardnumber", "cvv", "cvc", "iban",
}

// looksSecret reports whether any of texts mentions a secretWords word.
func looksSecret(texts ...string) bool {
	for _, t := range texts {
		var b strings.Builder
		for _, r := range strings.ToLower(t) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		n := b.String()
		for _, w := range secretWords {
			if strings.Contains(n, w) {
				return true
			}
		}
	}
	return false
}

// asksSecret reports whether q lets the person type text and its wording
// suggests a secret: a text question whose header, message or placeholder
// does; a choice with free text whose header or message does; a form with a
// string field whose name, title or description does, or whose header or
// message does. Confirmations, approvals and plain choices carry no typed
// text and are never secret.
func asksSecret(q question.Question) bool {
	switch q.Kind {
	case question.KindText:
		return looksSecret(q.Header, q.Message, q.Placeholder)
	case question.KindChoice, question.KindMultiChoice:
		return q.FreeText && looksSecret(q.Header, q.Message)
	case question.KindForm:
		s, err := question.ParseSchema(q.Schema)
		if err != nil {
			return true
		}
		hasString := false
		for _, f := range s.Fields {
			if f.Type == question.FieldString {
				hasString = true
				if looksSecret(f.Name, f.Title, f.Description) {
					return true
				}
			}
		}
		return hasString && looksSecret(q.Header, q.Message, s.Title, s.Description)
	}
	return false
}

// neverOnForm reports whether q may say yes to an action (an approval, a
// destructive confirmation, or a confirmation that reads as destructive):
// such a question never goes to the client's form, in any ask mode. The
// client is the agent's own side; a form it answers itself, or an MCP
// session of the agent's own that declares form elicitation, would
// otherwise record the agent's yes as the person's. It does not block.
func neverOnForm(q question.Question) bool {
	return q.CanApprove() || (q.Kind == question.KindConfirm && present.ReadsDestructive(&q))
}

// elicitSchema builds the requestedSchema that puts q to the client, for
// protocol version ver. It returns an empty reason and the schema, or the
// reason q cannot go to the client's form.
func elicitSchema(q question.Question, ver string) (schema any, whyNot string) {
	titled := ver == "" || ver >= titledEnumsSince
	if neverOnForm(q) {
		return nil, "only the person approves: an approval or a destructive confirmation waits for the dialog, the page or the CLI"
	}
	if asksSecret(q) {
		return nil, "it may ask for a secret, which MCP allows only through URL mode"
	}
	var props map[string]any
	var required []string
	switch q.Kind {
	case question.KindNotice:
		return nil, "a notice needs no answer"
	case question.KindForm:
		return json.RawMessage(q.Schema), ""
	case question.KindConfirm:
		props, required = confirmProps(q)
	case question.KindChoice, question.KindMultiChoice:
		if q.Kind == question.KindMultiChoice && !titled {
			return nil, "multi-select forms need protocol " + titledEnumsSince
		}
		props, required = choiceProps(q, titled)
	case question.KindText:
		props, required = textProps(q, titled)
	default:
		return nil, fmt.Sprintf("kind %q has no form", q.Kind)
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s, ""
}

// confirmProps is a confirmation's form: one boolean titled with the yes label.
func confirmProps(q question.Question) (map[string]any, []string) {
	yes, no := q.YesLabel, q.NoLabel
	if yes == "" {
		yes = "Yes"
	}
	if no == "" {
		no = "No"
	}
	desc := fmt.Sprintf("Check for %q; leave unchecked for %q.", yes, no)
	if q.Destructive {
		desc = "This cannot be undone. " + desc
	}
	p := map[string]any{"type": "boolean", "title": yes, "description": desc}
	// A destructive confirmation is never pre-checked, whatever default
	// the agent sent (validation refuses "yes" there; this holds anyway).
	switch d := strings.TrimSpace(string(q.Default)); {
	case q.Destructive || d == `"no"` || d == "false":
		p["default"] = false
	case d == `"yes"` || d == "true":
		p["default"] = true
	}
	return map[string]any{propConfirm: p}, []string{propConfirm}
}

// choiceProps is a choice's or a multi-choice's form: the options, and a
// free-text note when the agent allowed one.
func choiceProps(q question.Question, titled bool) (map[string]any, []string) {
	props := map[string]any{}
	var required []string
	if q.Kind == question.KindMultiChoice {
		lo, hi := q.SelectBounds()
		p := map[string]any{"type": "array", "title": "Choose", "minItems": lo, "maxItems": hi,
			"items": map[string]any{"anyOf": titledConsts(q.Options, nil)}}
		if l := present.DefaultLabels(q.Default); l != nil {
			p["default"] = l
		}
		props[propChoices] = p
		required = []string{propChoices}
		if q.FreeText {
			props[propFreeText] = map[string]any{"type": "string", "title": "Anything to add", "maxLength": question.MaxNote}
		}
		return props, required
	}
	p := enumProp("Choose one", q.Options, nil, titled)
	if l := present.DefaultLabels(q.Default); len(l) == 1 {
		p["default"] = l[0]
	}
	props[propChoice] = p
	if q.FreeText {
		props[propFreeText] = map[string]any{"type": "string", "title": "Or write your own", "maxLength": question.MaxNote}
	} else {
		required = []string{propChoice}
	}
	return props, required
}

// textProps is a text question's form: the suggested answers as a choice,
// and a string when free text is allowed.
func textProps(q question.Question, titled bool) (map[string]any, []string) {
	props := map[string]any{}
	if len(q.Options) > 0 {
		props[propChoice] = enumProp("Suggested answers", q.Options, nil, titled)
	}
	if !q.FreeText {
		return props, []string{propChoice}
	}
	max := question.MaxAnswerText
	if q.MaxLength > 0 {
		max = q.MaxLength
	}
	p := map[string]any{"type": "string", "title": "Your answer", "maxLength": max}
	if q.MinLength > 0 {
		p["minLength"] = q.MinLength
	}
	if q.Placeholder != "" {
		p["description"] = q.Placeholder
	}
	var d string
	if json.Unmarshal(q.Default, &d) == nil && d != "" {
		p["default"] = d
	}
	props[propAnswer] = p
	if len(q.Options) > 0 {
		p["title"] = "Or write your own"
		return props, nil
	}
	return props, []string{propAnswer}
}

// enumProp is a single-select string property over opts: titled
// (oneOf const/title) for protocol 2025-11-25 and later, else enum plus the
// legacy enumNames. titles, when given, replace the option labels as titles.
func enumProp(title string, opts []question.Option, titles []string, titled bool) map[string]any {
	p := map[string]any{"type": "string", "title": title}
	if titled {
		p["oneOf"] = titledConsts(opts, titles)
		return p
	}
	values := make([]string, len(opts))
	names := make([]string, len(opts))
	for i, c := range titledConsts(opts, titles) {
		values[i], names[i] = c["const"], c["title"]
	}
	p["enum"], p["enumNames"] = values, names
	return p
}

// titledConsts lists opts as {const: label, title: what the person reads}.
func titledConsts(opts []question.Option, titles []string) []map[string]string {
	out := make([]map[string]string, len(opts))
	for i, o := range opts {
		t := o.Label
		if i < len(titles) {
			t = titles[i]
		}
		if o.Description != "" {
			t += " — " + o.Description
		}
		out[i] = map[string]string{"const": o.Label, "title": t}
	}
	return out
}

// elicitMessage is the text the client shows above the form.
func elicitMessage(q question.Question) string {
	m := q.Message
	if q.Header != "" {
		m = q.Header + "\n\n" + m
	}
	return m
}

// elicitResponse turns an accepted form's content into the response for q,
// in the value forms Question.CheckResponse takes. ok is false when the
// content does not make an answer (the caller then leaves the question to
// the desktop, the page and the CLI).
func elicitResponse(q question.Question, content any) (r question.Response, ok bool) {
	raw, err := json.Marshal(content)
	if err != nil {
		return r, false
	}
	r = question.Response{Action: question.Accept, Via: question.ViaElicitation}
	if q.Kind == question.KindForm {
		r.Value = raw
		return r, true
	}
	var c map[string]json.RawMessage
	if json.Unmarshal(raw, &c) != nil {
		return r, false
	}
	var s string
	switch q.Kind {
	case question.KindConfirm:
		var yes bool
		if json.Unmarshal(c[propConfirm], &yes) != nil {
			return r, false
		}
		r.Value = json.RawMessage(`"no"`)
		if yes {
			r.Value = json.RawMessage(`"yes"`)
		}
	case question.KindChoice, question.KindMultiChoice:
		sel := c[propChoice]
		if q.Kind == question.KindMultiChoice {
			sel = c[propChoices]
		}
		var note string
		_ = json.Unmarshal(c[propFreeText], &note)
		v := map[string]any{"free_text": strings.TrimSpace(note)}
		if len(sel) > 0 {
			v["selected"] = sel
		}
		r.Value, _ = json.Marshal(v)
	case question.KindText:
		// Typed text wins over a suggested answer, as in the dialog.
		var typed, picked string
		_ = json.Unmarshal(c[propAnswer], &typed)
		_ = json.Unmarshal(c[propChoice], &picked)
		switch {
		case strings.TrimSpace(typed) != "":
			s = typed
		case picked != "":
			s = picked
		case q.FreeText && len(q.Options) == 0 && c[propAnswer] != nil:
			s = typed
		default:
			return r, false
		}
		r.Value, _ = json.Marshal(s)
	default:
		return r, false
	}
	return r, true
}
