package question

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func opts(labels ...string) []Option {
	out := make([]Option, len(labels))
	for i, l := range labels {
		out[i] = Option{Label: l}
	}
	return out
}

func nOpts(n int) []Option {
	out := make([]Option, n)
	for i := range out {
		out[i] = Option{Label: strings.Repeat("x", i+1)}
	}
	return out
}

const formSchema = `{"type":"object","properties":{"name":{"type":"string","maxLength":10},"age":{"type":"integer","minimum":0}},"required":["name"]}`

// validationCases is shared by the table test and the fuzz seeds. want is a
// substring of the error, or "" for a valid question.
var validationCases = []struct {
	name string
	q    Question
	want string
}{
	{"text_ok", Question{Kind: KindText, Message: "Name?", FreeText: true}, ""},
	{"text_three_suggestions", Question{Kind: KindText, Message: "m", Options: opts("a", "b", "c"), FreeText: true}, ""},
	{"text_four_suggestions", Question{Kind: KindText, Message: "m", Options: opts("a", "b", "c", "d")}, "options: at most 3 suggested answers, got 4"},
	{"text_no_suggestions_no_free_text", Question{Kind: KindText, Message: "m"}, "free_text: must be on"},
	{"text_min_above_max", Question{Kind: KindText, Message: "m", FreeText: true, MinLength: 5, MaxLength: 2}, "min_length: 5 is above max_length 2"},
	{"text_max_length_limit", Question{Kind: KindText, Message: "m", FreeText: true, MaxLength: MaxAnswerText + 1}, "max_length: must be between 0 and 65536"},
	{"text_negative_min", Question{Kind: KindText, Message: "m", FreeText: true, MinLength: -1}, "min_length"},
	{"unknown_kind", Question{Kind: "poll", Message: "m"}, `kind: "poll" is not one of`},
	{"empty_message", Question{Kind: KindConfirm}, "message: must not be empty"},
	{"message_at_limit", Question{Kind: KindConfirm, Message: strings.Repeat("é", MaxMessage)}, ""},
	{"message_over_limit", Question{Kind: KindConfirm, Message: strings.Repeat("a", MaxMessage+1)}, "message: at most 4096 characters, got 4097"},
	{"message_invalid_utf8", Question{Kind: KindConfirm, Message: "\xff"}, "message: not valid UTF-8"},
	{"header_at_limit", Question{Kind: KindConfirm, Message: "m", Header: strings.Repeat("h", MaxHeader)}, ""},
	{"header_over_limit", Question{Kind: KindConfirm, Message: "m", Header: strings.Repeat("h", MaxHeader+1)}, "header: at most 64 characters, got 65"},
	{"choice_two", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b")}, ""},
	{"choice_one", Question{Kind: KindChoice, Message: "m", Options: opts("a")}, "options: between 2 and 20 options, got 1"},
	{"choice_twenty", Question{Kind: KindChoice, Message: "m", Options: nOpts(20)}, ""},
	{"choice_twenty_one", Question{Kind: KindChoice, Message: "m", Options: nOpts(21)}, "options: between 2 and 20 options, got 21"},
	{"choice_empty_label", Question{Kind: KindChoice, Message: "m", Options: opts("a", "")}, "options[1].label: must not be empty"},
	{"choice_duplicate_label", Question{Kind: KindChoice, Message: "m", Options: opts("a", "a")}, `options[1].label: "a" repeats options[0].label`},
	{"choice_label_at_limit", Question{Kind: KindChoice, Message: "m", Options: opts(strings.Repeat("l", MaxLabel), "b")}, ""},
	{"choice_label_over_limit", Question{Kind: KindChoice, Message: "m", Options: opts(strings.Repeat("l", MaxLabel+1), "b")}, "options[0].label: at most 100 characters, got 101"},
	{"choice_description_over_limit", Question{Kind: KindChoice, Message: "m", Options: []Option{{Label: "a", Description: strings.Repeat("d", MaxDescription+1)}, {Label: "b"}}}, "options[0].description: at most 512 characters, got 513"},
	{"multi_bounds_ok", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c"), MinSelect: 1, MaxSelect: 2}, ""},
	{"multi_min_above_max", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c"), MinSelect: 3, MaxSelect: 2}, "min_select: 3 is above max_select 2"},
	{"multi_max_above_options", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b"), MaxSelect: 3}, "max_select: must be between 0 and the 2 options, got 3"},
	{"min_select_on_choice", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), MinSelect: 1}, "min_select: not allowed for choice questions, only for multi_choice"},
	{"confirm_with_options", Question{Kind: KindConfirm, Message: "m", Options: opts("a", "b")}, "options: not allowed for confirm questions"},
	{"confirm_labels", Question{Kind: KindConfirm, Message: "m", YesLabel: "Delete", NoLabel: "Keep", Destructive: true}, ""},
	{"destructive_default_yes", Question{Kind: KindConfirm, Message: "m", Destructive: true, Default: json.RawMessage(`"yes"`)}, `default: "yes" is not allowed with destructive`},
	{"destructive_default_true", Question{Kind: KindConfirm, Message: "m", Destructive: true, Default: json.RawMessage(`true`)}, `default: "yes" is not allowed with destructive`},
	{"destructive_default_no", Question{Kind: KindConfirm, Message: "m", Destructive: true, Default: json.RawMessage(`"no"`)}, ""},
	{"default_yes", Question{Kind: KindConfirm, Message: "m", Default: json.RawMessage(`"yes"`)}, ""},
	{"confirm_label_over_limit", Question{Kind: KindConfirm, Message: "m", YesLabel: strings.Repeat("y", 41)}, "yes_label: at most 40 characters"},
	{"form_ok", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(formSchema)}, ""},
	{"form_without_schema", Question{Kind: KindForm, Message: "m"}, "schema: a form needs a requestedSchema"},
	{"form_bad_schema", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","pattern":"a"}}}`)}, `"pattern"`},
	{"schema_on_text", Question{Kind: KindText, Message: "m", FreeText: true, Schema: json.RawMessage(formSchema)}, "schema: not allowed for text questions, only for form"},
	{"approval_ok", Question{Kind: KindApproval, Message: "rm -rf build", Risk: RiskHigh, Destructive: true}, ""},
	{"approval_fields_at_limits", Question{Kind: KindApproval, Message: "m", Tool: strings.Repeat("t", MaxTool), Action: strings.Repeat("a", MaxAction), Details: strings.Repeat("d", MaxDetails), AgentReason: strings.Repeat("r", MaxAgentReason)}, ""},
	{"tool_over_limit", Question{Kind: KindConfirm, Message: "m", Tool: strings.Repeat("t", MaxTool+1)}, "tool: at most 64 characters, got 65"},
	{"action_over_limit", Question{Kind: KindApproval, Message: "m", Action: strings.Repeat("a", MaxAction+1)}, "action: at most 200 characters, got 201"},
	{"details_over_limit", Question{Kind: KindApproval, Message: "m", Details: strings.Repeat("d", MaxDetails+1)}, "details: at most 65536 characters, got 65537"},
	{"agent_reason_over_limit", Question{Kind: KindApproval, Message: "m", AgentReason: strings.Repeat("r", MaxAgentReason+1)}, "agent_reason: at most 2048 characters, got 2049"},
	{"action_on_confirm", Question{Kind: KindConfirm, Message: "m", Action: "Deploy"}, "action: not allowed for confirm questions, only for approval"},
	{"details_on_text", Question{Kind: KindText, Message: "m", FreeText: true, Details: "x"}, "details: not allowed for text questions"},
	{"agent_reason_on_notice", Question{Kind: KindNotice, Message: "m", AgentReason: "x"}, "agent_reason: not allowed for notice questions"},
	{"approval_bad_risk", Question{Kind: KindApproval, Message: "m", Risk: "extreme"}, `risk: "extreme" is not one of low, medium, high`},
	{"risk_on_confirm", Question{Kind: KindConfirm, Message: "m", Risk: RiskLow}, "risk: not allowed for confirm questions, only for approval"},
	{"notice_ok", Question{Kind: KindNotice, Message: "Build finished"}, ""},
	{"client_name_over_limit", Question{Kind: KindNotice, Message: "m", Client: Client{Name: strings.Repeat("c", MaxClientField+1)}}, "client.name: at most 200 characters"},
	{"default_ok", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), Default: json.RawMessage(`"b"`)}, ""},
	{"default_not_an_option", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), Default: json.RawMessage(`"c"`)}, `default[0]: "c" is not one of the options`},
	{"default_confirm_bad", Question{Kind: KindConfirm, Message: "m", Default: json.RawMessage(`"maybe"`)}, `default: must be "yes" or "no"`},
	{"default_text_too_long", Question{Kind: KindText, Message: "m", FreeText: true, MaxLength: 3, Default: json.RawMessage(`"abcd"`)}, "default: at most 3 characters, got 4"},
	{"two_problems_reported", Question{Kind: KindConfirm, Header: strings.Repeat("h", 65)}, "2 problems"},
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tt := range validationCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.q.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("error %v carries no FieldError", err)
			}
		})
	}
}

// answerCases is shared by the table test and the fuzz seeds.
var answerCases = []struct {
	name  string
	q     Question
	r     Response
	value string // canonical value wanted, or "" with want set
	note  string
	want  string // error substring
}{
	{"text", Question{Kind: KindText, Message: "m", FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`"hi"`)}, `"hi"`, "", ""},
	{"text_not_string", Question{Kind: KindText, Message: "m", FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`42`)}, "", "", "value: must be a JSON string"},
	{"text_too_short", Question{Kind: KindText, Message: "m", FreeText: true, MinLength: 3}, Response{Action: Accept, Value: json.RawMessage(`"ab"`)}, "", "", "value: at least 3 characters, got 2"},
	{"text_too_long", Question{Kind: KindText, Message: "m", FreeText: true, MaxLength: 2}, Response{Action: Accept, Value: json.RawMessage(`"abc"`)}, "", "", "value: at most 2 characters, got 3"},
	{"text_suggestion_only", Question{Kind: KindText, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`"c"`)}, "", "", "free text is off"},
	{"text_suggestion_picked", Question{Kind: KindText, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`"b"`)}, `"b"`, "", ""},
	{"confirm_yes", confirmQ(), Response{Action: Accept, Value: json.RawMessage(`"yes"`)}, `"yes"`, "", ""},
	{"confirm_false", confirmQ(), Response{Action: Accept, Value: json.RawMessage(`false`)}, `"no"`, "", ""},
	{"confirm_bad", confirmQ(), Response{Action: Accept, Value: json.RawMessage(`"Y"`)}, "", "", `must be "yes" or "no"`},
	{"choice_string", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`"a"`)}, `["a"]`, "", ""},
	{"choice_two", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`["a","b"]`)}, "", "", "pick one option, got 2"},
	{"choice_unknown", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`"z"`)}, "", "", `value[0]: "z" is not one of the options`},
	{"choice_none", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b")}, Response{Action: Accept, Value: json.RawMessage(`[]`)}, "", "", "pick one of the options"},
	{"choice_free_text_only", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`{"selected":[],"free_text":"neither"}`)}, `[]`, "neither", ""},
	{"choice_with_note", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`{"selected":"b","free_text":"because"}`)}, `["b"]`, "because", ""},
	{"multi", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c")}, Response{Action: Accept, Value: json.RawMessage(`["c","a"]`)}, `["c","a"]`, "", ""},
	{"multi_duplicate", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c")}, Response{Action: Accept, Value: json.RawMessage(`["a","a"]`)}, "", "", `value[1]: "a" is selected twice`},
	{"multi_too_few", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c"), MinSelect: 2}, Response{Action: Accept, Value: json.RawMessage(`["a"]`)}, "", "", "pick at least 2, got 1"},
	{"multi_too_many", Question{Kind: KindMultiChoice, Message: "m", Options: opts("a", "b", "c"), MaxSelect: 1}, Response{Action: Accept, Value: json.RawMessage(`["a","b"]`)}, "", "", "pick at most 1, got 2"},
	{"form_types_kept", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(formSchema)}, Response{Action: Accept, Value: json.RawMessage(`{"age": 7, "name": "Ada"}`)}, `{"name":"Ada","age":7}`, "", ""},
	{"form_missing_required", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(formSchema)}, Response{Action: Accept, Value: json.RawMessage(`{"age":7}`)}, "", "", "content.name: required"},
	// Case-variant and duplicate keys are refused by name, never merged or last-wins.
	{"form_duplicate_key", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(formSchema)}, Response{Action: Accept, Value: json.RawMessage(`{"name":"Ada","name":"Bob"}`)}, "", "", `content: duplicate key "name"`},
	{"form_case_variant_key", Question{Kind: KindForm, Message: "m", Schema: json.RawMessage(formSchema)}, Response{Action: Accept, Value: json.RawMessage(`{"name":"Ada","Name":"Bob"}`)}, "", "", `content.Name: not in the schema`},
	{"choice_duplicate_selected", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`{"selected":"a","selected":"b"}`)}, "", "", `value: must be an option label or an array of option labels`},
	{"choice_case_variant_selected", Question{Kind: KindChoice, Message: "m", Options: opts("a", "b"), FreeText: true}, Response{Action: Accept, Value: json.RawMessage(`{"selected":"a","Selected":"b"}`)}, "", "", `value: must be an option label or an array of option labels`},
	{"approval_allow", Question{Kind: KindApproval, Message: "m"}, Response{Action: Accept, Value: json.RawMessage(`"allow"`)}, `"allow"`, "", ""},
	{"approval_deny_as_accept", Question{Kind: KindApproval, Message: "m"}, Response{Action: Accept, Value: json.RawMessage(`"deny"`)}, "", "", "to deny, decline"},
	{"notice_ack", Question{Kind: KindNotice, Message: "m"}, Response{Action: Accept}, `"ok"`, "", ""},
	{"decline_with_note", confirmQ(), Response{Action: Decline, Note: "wrong branch"}, "", "wrong branch", ""},
	{"decline_with_value", confirmQ(), Response{Action: Decline, Value: json.RawMessage(`"yes"`)}, "", "", "a decline carries no value"},
	{"bad_action", confirmQ(), Response{Action: "approve"}, "", "", `action: "approve" is not one of accept, decline, cancel`},
	{"note_too_long", confirmQ(), Response{Action: Decline, Note: strings.Repeat("n", MaxNote+1)}, "", "", "note: at most 4096 characters"},
}

func TestCheckResponse(t *testing.T) {
	t.Parallel()
	for _, tt := range answerCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.q.Validate(); err != nil {
				t.Fatalf("bad test question: %v", err)
			}
			got, err := tt.q.CheckResponse(tt.r)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v, want ErrInvalid containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if string(got.Value) != tt.value || got.Note != tt.note {
				t.Fatalf("got value %s note %q, want %s %q", got.Value, got.Note, tt.value, tt.note)
			}
			// Canonical values are fixed points.
			if tt.r.Action == Accept {
				again, err := tt.q.CheckResponse(Response{Action: Accept, Value: got.Value, Note: got.Note})
				if err != nil || string(again.Value) != string(got.Value) {
					t.Fatalf("canonical value %s did not re-validate: %v %s", got.Value, err, again.Value)
				}
			}
		})
	}
}

func FuzzValidate(f *testing.F) {
	for _, tc := range validationCases {
		b, _ := json.Marshal(tc.q)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var q Question
		if json.Unmarshal(data, &q) != nil {
			return
		}
		err := q.Validate()
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("validation error does not wrap ErrInvalid: %v", err)
		}
		if err == nil && q.Default != nil && q.Kind != KindNotice {
			if _, err := q.CheckResponse(Response{Action: Accept, Value: q.Default}); err != nil {
				t.Fatalf("valid question's default refused: %v", err)
			}
		}
	})
}

func FuzzCheckResponse(f *testing.F) {
	for i, tc := range answerCases {
		f.Add(i, string(tc.r.Action), []byte(tc.r.Value), tc.r.Note)
	}
	f.Fuzz(func(t *testing.T, i int, action string, value []byte, note string) {
		if i < 0 {
			i = -i
		}
		q := answerCases[i%len(answerCases)].q
		got, err := q.CheckResponse(Response{Action: Action(action), Value: value, Note: note})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		if got.Action == Accept {
			if !json.Valid(got.Value) {
				t.Fatalf("canonical value is not JSON: %q", got.Value)
			}
			again, err := q.CheckResponse(got)
			if err != nil || string(again.Value) != string(got.Value) {
				t.Fatalf("canonical %s not a fixed point: %v %s", got.Value, err, again.Value)
			}
		}
	})
}
