package mcpbridge

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolAskForm asks for several typed values (an MCP elicitation
// requestedSchema). The name is fixed: agents and user configs refer to it.
const ToolAskForm = "ask_form"

// askFormSpec: a form's message is its own argument, message.
var askFormSpec = &toolSpec{name: ToolAskForm, define: askFormTool, args: func() askArgs { return new(askFormArgs) }, serve: serveAsk,
	fields: map[string]string{"message": "message"}}

// askFormTool defines ask_form.
func askFormTool(name string) mcp.Tool {
	return newTool(name, "Ask the user to fill in a form",
		"Ask for several typed values at once with an MCP elicitation requestedSchema: a flat object of string (minLength, maxLength, format email|uri|date|date-time), number/integer (minimum, maximum), boolean, single-select enum (enum, oneOf with const/title, legacy enumNames) and multi-select (type array, items with enum or anyOf) properties, plus required. Anything else is refused by name. Never ask for passwords, API keys or tokens. Returns exactly an elicitation result: action (accept, decline or cancel) and, on accept, content with JSON types kept."+waitNote,
		input(obj{
			"message":         str("What the form is for, in Markdown. Up to 4096 characters."),
			"header":          header(),
			"requestedSchema": obj{"type": "object", "description": "The form: an MCP elicitation schema ({\"type\":\"object\",\"properties\":{...},\"required\":[...]})."},
		}, []string{"message", "requestedSchema"}, true),
		output(obj{"action": obj{"type": "string", "enum": []string{"accept", "decline", "cancel"}}, "content": obj{"type": "object", "description": "The values, on accept."}}),
		true, false, false)
}

type askFormArgs struct {
	askCommon
	Message         string          `json:"message"`
	Header          string          `json:"header"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func (in *askFormArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindForm, Message: in.Message, Header: in.Header,
		Schema: in.RequestedSchema}}
}
