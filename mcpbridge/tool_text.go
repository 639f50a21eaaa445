package mcpbridge

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolAskText asks for free text. The name is fixed: agents and user configs
// refer to it.
const ToolAskText = "ask_text"

var askTextSpec = &toolSpec{name: ToolAskText, define: askTextTool, args: func() askArgs { return new(askTextArgs) }, serve: serveAsk}

// askTextTool defines ask_text.
func askTextTool(name string) mcp.Tool {
	return newTool(name, "Ask the user for text",
		"Ask the user to type text: a name, a message, a commit text, a path. Single-line by default, multi-line with multiline; min_length and max_length are enforced in the dialog. Returns answer."+waitNote,
		input(obj{
			"question":    str(questionDesc),
			"header":      header(),
			"multiline":   boolean("Offer a multi-line text area."),
			"placeholder": strMax("Hint shown in the empty field, up to 200 characters.", 200),
			"default":     str("Pre-filled text."),
			"min_length":  integer("Fewest characters accepted.", 0, 65536),
			"max_length":  integer("Most characters accepted (default 65536).", 0, 65536),
		}, []string{"question"}, true),
		output(obj{"answer": str("The text the user typed."), "source": obj{"type": "string", "enum": []string{"free_text"}}}),
		true, false, false)
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
