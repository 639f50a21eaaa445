package mcpbridge

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolAskUser is an open question with suggested answers. The name is fixed:
// agents and user configs refer to it.
const ToolAskUser = "ask_user"

var askUserSpec = &toolSpec{name: ToolAskUser, define: askUserTool, args: func() askArgs { return new(askUserArgs) }, serve: serveAsk}

// askUserTool defines ask_user.
func askUserTool(name string) mcp.Tool {
	return newTool(name, "Ask the user",
		"Ask the user an open question when you need clarification, a preference or a fact only they know, optionally with up to 3 suggested answers they can pick; they can always type their own answer unless free_text is false. Returns answer (the text) and source (choice when they picked a suggestion, free_text when they typed)."+waitNote,
		input(obj{
			"question":  str(questionDesc),
			"header":    header(),
			"options":   optionList("Up to 3 suggested answers.", 0, 3),
			"free_text": boolean("Let the user type their own answer (default true). With false they must pick one of options."),
			"default":   str("Pre-filled answer."),
		}, []string{"question"}, true),
		output(obj{"answer": str("The user's answer."), "source": obj{"type": "string", "enum": []string{"choice", "free_text"}}}),
		true, false, false)
}

type askUserArgs struct {
	askCommon
	Question string      `json:"question"`
	Header   string      `json:"header"`
	Options  []optionArg `json:"options"`
	FreeText *bool       `json:"free_text"`
	Default  *string     `json:"default"`
}

func (in *askUserArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindText, Message: in.Question, Header: in.Header,
		Options: options(in.Options), FreeText: in.FreeText == nil || *in.FreeText, Default: quote(in.Default)}}
}
