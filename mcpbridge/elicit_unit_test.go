package mcpbridge

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestAsksSecret(t *testing.T) {
	t.Parallel()
	form := func(props string) question.Question {
		return question.Question{Kind: question.KindForm, Message: "Set up the deploy", Schema: json.RawMessage(`{"type":"object","properties":` + props + `}`)}
	}
	cases := []struct {
		q    question.Question
		want bool
	}{
		{question.Question{Kind: question.KindText, Message: "Paste the API key for staging"}, true},
		{question.Question{Kind: question.KindText, Message: "Name?", Placeholder: "your password"}, true},
		{question.Question{Kind: question.KindText, Message: "Which branch?"}, false},
		{question.Question{Kind: question.KindChoice, Message: "Which token?", FreeText: true}, true},
		{question.Question{Kind: question.KindChoice, Message: "Rotate which token?"}, false}, // nothing typed
		{question.Question{Kind: question.KindConfirm, Message: "Rotate the secret now?"}, false},
		{form(`{"github_token":{"type":"string"}}`), true},
		{form(`{"user":{"type":"string"},"p":{"type":"string","title":"Passphrase"}}`), true},
		{form(`{"k":{"type":"string","description":"Your private key, PEM"}}`), true},
		{form(`{"region":{"type":"string"},"replicas":{"type":"integer"}}`), false},
		{form(`{"use_token":{"type":"boolean"}}`), false}, // no typed text
	}
	for i, tc := range cases {
		if got := asksSecret(tc.q); got != tc.want {
			t.Errorf("%d: asksSecret(%s %q) = %v, want %v", i, tc.q.Kind, tc.q.Message, got, tc.want)
		}
	}
	if _, why := elicitSchema(cases[0].q, "2025-11-25"); why == "" {
		t.Error("a secret question got a form")
	}
}

func TestElicitResponse(t *testing.T) {
	t.Parallel()
	opts := []question.Option{{Label: "a"}, {Label: "b"}}
	cases := []struct {
		q       question.Question
		content map[string]any
		action  question.Action
		value   string
		ok      bool
	}{
		{question.Question{Kind: question.KindConfirm, Message: "?"}, map[string]any{}, "", "", false},
		{question.Question{Kind: question.KindText, Message: "?", Options: opts, FreeText: true}, map[string]any{"choice": "a", "answer": "typed"}, question.Accept, `"typed"`, true},
		{question.Question{Kind: question.KindText, Message: "?", Options: opts, FreeText: true}, map[string]any{"answer": "  "}, "", "", false},
		{question.Question{Kind: question.KindText, Message: "?", FreeText: true}, map[string]any{"answer": ""}, question.Accept, `""`, true},
	}
	for i, tc := range cases {
		r, ok := elicitResponse(tc.q, tc.content)
		if ok != tc.ok || (ok && (r.Action != tc.action || string(r.Value) != tc.value || r.Via != question.ViaElicitation)) {
			t.Errorf("%d: %+v %v, want %s %s %v", i, r, ok, tc.action, tc.value, tc.ok)
		}
		if ok {
			if _, err := tc.q.CheckResponse(r); err != nil {
				t.Errorf("%d: the broker would refuse %+v: %v", i, r, err)
			}
		}
	}
}
