package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
)

// fillForm asks for each field of q's form in turn on the terminal, with
// the hints and checks the dialog uses (question.Field), and returns the
// answer. An empty line leaves an optional field out; Esc goes back.
func fillForm(q question.Question) func(*terminal) (*control.AnswerRequest, error) {
	return func(t *terminal) (*control.AnswerRequest, error) {
		s, err := question.ParseSchema(q.Schema)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		buf.WriteByte('{')
		n := 0
		for _, f := range s.Fields {
			v, ok, err := askField(t, f)
			if err != nil || !ok {
				return nil, err
			}
			if v == nil {
				continue
			}
			if n > 0 {
				buf.WriteByte(',')
			}
			name, _ := json.Marshal(f.Name)
			buf.Write(name)
			buf.WriteByte(':')
			buf.Write(v)
			n++
		}
		buf.WriteByte('}')
		return &control.AnswerRequest{Action: question.Accept, Value: buf.Bytes()}, nil
	}
}

// askField reads one field's value until it is valid; nil leaves the field
// out. ok is false when the person pressed Esc.
func askField(t *terminal, f question.Field) (json.RawMessage, bool, error) {
	title := orDefault(f.Title, f.Name)
	if f.Description != "" {
		t.printf("%s: %s\n", title, f.Description)
	}
	hint := orDefault(f.InputHint(), "text")
	switch f.Type {
	case question.FieldBoolean:
		hint = "y or n"
	case question.FieldEnum, question.FieldMultiSelect:
		for i, v := range f.Values {
			t.printf("  %d. %s\n", i+1, orDefault(v.Title, v.Value))
		}
		hint = "a number"
		if f.Type == question.FieldMultiSelect {
			hint = "numbers separated by commas"
		}
	}
	req := ""
	if f.Required {
		req = ", required"
	}
	for {
		line, ok, err := t.readLine(fmt.Sprintf("%s (%s%s): ", title, hint, req))
		if err != nil || !ok {
			return nil, false, err
		}
		line = strings.TrimSpace(line)
		if line == "" && !f.Required {
			return nil, true, nil
		}
		v, err := fieldValue(f, line)
		if err == nil {
			return v, true, nil
		}
		t.printf("  %v\n", err)
	}
}

// fieldValue turns a typed line into f's JSON value.
func fieldValue(f question.Field, line string) (json.RawMessage, error) {
	switch f.Type {
	case question.FieldBoolean:
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return json.RawMessage("true"), nil
		case "n", "no", "false":
			return json.RawMessage("false"), nil
		}
		return nil, fmt.Errorf("type y or n")
	case question.FieldEnum:
		var i int
		if _, err := fmt.Sscan(line, &i); err != nil || i < 1 || i > len(f.Values) {
			return nil, fmt.Errorf("type a number from 1 to %d", len(f.Values))
		}
		return json.Marshal(f.Values[i-1].Value)
	case question.FieldMultiSelect:
		picks := []string{}
		for p := range strings.FieldsFuncSeq(line, func(r rune) bool { return r == ',' || r == ' ' }) {
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i < 1 || i > len(f.Values) {
				return nil, fmt.Errorf("%q is not a number from 1 to %d", p, len(f.Values))
			}
			picks = append(picks, f.Values[i-1].Value)
		}
		if err := f.CheckPicks(len(picks)); err != nil {
			return nil, err
		}
		return json.Marshal(picks)
	}
	return f.ParseInput(line)
}
