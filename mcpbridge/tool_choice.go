package mcpbridge

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolAskChoice picks one option and ToolAskMultiSelect several. The names
// are fixed: agents and user configs refer to them.
const (
	ToolAskChoice      = "ask_choice"
	ToolAskMultiSelect = "ask_multi_select"
)

var (
	askChoiceSpec      = &toolSpec{name: ToolAskChoice, define: askChoiceTool, args: func() askArgs { return new(askChoiceArgs) }, serve: serveAsk}
	askMultiSelectSpec = &toolSpec{name: ToolAskMultiSelect, define: askMultiSelectTool, args: func() askArgs { return new(askMultiSelectArgs) }, serve: serveAsk}
)

// askChoiceTool defines ask_choice.
func askChoiceTool(name string) mcp.Tool {
	return newTool(name, "Ask the user to pick one option",
		"Ask the user to pick exactly one of 2 to 20 options, each with a label and an optional description. With free_text the user may add a note (or answer only with a note). Returns selected (a list with the picked label) and free_text."+waitNote,
		input(obj{
			"question":  str(questionDesc),
			"header":    header(),
			"options":   optionList("2 to 20 options with distinct labels.", 2, 20),
			"free_text": boolean("Offer a free-text note next to the options (default false)."),
			"default":   str("Label of the pre-selected option."),
		}, []string{"question", "options"}, true),
		output(obj{"selected": obj{"type": "array", "items": obj{"type": "string"}, "description": "Labels the user picked."}, "free_text": str("The user's note, if any.")}),
		true, false, false)
}

// askMultiSelectTool defines ask_multi_select.
func askMultiSelectTool(name string) mcp.Tool {
	return newTool(name, "Ask the user to pick several options",
		"Ask the user to pick any number of 2 to 20 options, within min_selections..max_selections. Returns selected (the picked labels, in the user's order) and free_text."+waitNote,
		input(obj{
			"question":       str(questionDesc),
			"header":         header(),
			"options":        optionList("2 to 20 options with distinct labels.", 2, 20),
			"min_selections": integer("Fewest options the user must pick (default 0).", 0, 20),
			"max_selections": integer("Most options the user may pick (default: all).", 0, 20),
			"free_text":      boolean("Offer a free-text note next to the options (default false)."),
			"default":        obj{"type": "array", "items": obj{"type": "string"}, "description": "Labels pre-selected."},
		}, []string{"question", "options"}, true),
		output(obj{"selected": obj{"type": "array", "items": obj{"type": "string"}, "description": "Labels the user picked."}, "free_text": str("The user's note, if any.")}),
		true, false, false)
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
