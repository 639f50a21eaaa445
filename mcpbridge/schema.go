package mcpbridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/asktray/asktray/app/question"
)

// obj is a JSON Schema object under construction; json.Marshal sorts its
// keys, so schemas and their golden files are stable.
type obj = map[string]any

func str(desc string) obj { return obj{"type": "string", "description": desc} }

func strMax(desc string, max int) obj {
	return obj{"type": "string", "description": desc, "maxLength": max}
}

func boolean(desc string) obj { return obj{"type": "boolean", "description": desc} }

func integer(desc string, min, max int) obj {
	return obj{"type": "integer", "description": desc, "minimum": min, "maximum": max}
}

func optionList(desc string, min, max int) obj {
	o := obj{
		"type":        "array",
		"description": desc,
		"maxItems":    max,
		"items": obj{
			"type": "object",
			"properties": obj{
				"label":       obj{"type": "string", "minLength": 1, "maxLength": 100, "description": "What the user sees and what comes back when they pick it."},
				"description": obj{"type": "string", "maxLength": 512, "description": "Optional detail shown under the label."},
			},
			"required":             []string{"label"},
			"additionalProperties": false,
		},
	}
	if min > 0 {
		o["minItems"] = min
	}
	return o
}

// timeoutRange says the limits of timeout_seconds, question.MinTimeout to
// MaxTimeout in seconds: "10..86400".
func timeoutRange() string {
	return fmt.Sprintf("%d..%d", question.MinTimeout/time.Second, question.MaxTimeout/time.Second)
}

// input returns a tool's input schema: props plus the common ask parameters
// when ask is set.
func input(props obj, required []string, ask bool) json.RawMessage {
	all := maps.Clone(props)
	if ask {
		all["timeout_seconds"] = obj{"type": "integer", "description": fmt.Sprintf("How long the user has to answer, in seconds, before the question ends as auto_rejected (reason timeout). "+
			"Values outside %s are clamped; default %d.", timeoutRange(), question.DefaultTimeout/time.Second)}
		all["wait"] = boolean("Wait for the answer (default true). false returns status pending with a question_id at once; fetch the answer later with get_answer.")
	}
	s := obj{"type": "object", "properties": all, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return mustJSON(s)
}

// commonOutput holds the result fields every ask tool returns.
var commonOutput = obj{
	"question_id":           str("Id of the question; pass it to get_answer or cancel_question."),
	"tool":                  str("The tool that asked the question (also in get_answer and cancel_question results)."),
	"question":              str("The question as asked (an approval's action, a notice's message)."),
	"status":                obj{"type": "string", "enum": []string{"answered", "declined", "cancelled", "auto_rejected", "auto_approved", "withdrawn", "interrupted", "pending", StatusNeedsUserInput}, "description": "Outcome. Only answered (and auto_approved) carry a usable answer. pending: the user has not answered yet; call get_answer. needs_user_input: the user is away and wants you to ask this in your own chat; message holds the question and its options."},
	"answered_by":           obj{"type": "string", "enum": []string{"human", "rule", "timeout", "agent", "app"}, "description": "Who decided the outcome."},
	"reason":                obj{"type": "string", "enum": []string{"timeout", "rule", "away", "app_stopped", "handed_back"}, "description": "Why an automatic outcome happened."},
	"via":                   obj{"type": "string", "enum": []string{"dialog", "notification", "cli", "web", "elicitation", "rule"}, "description": "Channel the decision came through."},
	"message":               str("A note the user added, for example why they declined; with status needs_user_input, the question and its options to ask the user in your chat."),
	"rule_id":               str("The rule the user made that decided this (or was made with the answer)."),
	"elapsed_ms":            obj{"type": "integer", "description": "Time from asking to the outcome (or to now while pending), in milliseconds."},
	"next_step":             str("What to do next. Follow it."),
	"client_elicitation":    boolean("Whether your client declared MCP form elicitation support."),
	"auto_reject_suspected": boolean("True when a decline came back faster than a person could read the question."),
}

// output returns a tool's output schema: the common fields plus props.
func output(props obj) json.RawMessage {
	all := maps.Clone(commonOutput)
	maps.Copy(all, props)
	return mustJSON(obj{"type": "object", "properties": all, "required": []string{"question_id", "tool", "question", "status", "next_step"}})
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only static schemas come here
	}
	return b
}
