package mcpbridge

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// toolSpec is everything about one MCP tool in one place: its name, its
// definition (schema and annotations), the arguments an ask tool decodes
// into, what the question model's fields are called in its arguments, and
// how a call is served. The tool list, registration, argument decoding and
// dispatch are all derived from toolSpecs.
type toolSpec struct {
	name   string
	define func(name string) mcp.Tool
	// args returns a new value of an ask tool's arguments type; nil for
	// the tools that do not ask (get_answer, cancel_question) or decode
	// their own (permission_prompt). The names a call may send are the
	// properties of the declared input schema (declaredArgs).
	args func() askArgs
	// fields maps the question model's field names to this tool's argument
	// names, beyond commonFields, so that validation errors name what the
	// agent sent.
	fields map[string]string
	// serve handles a call, on the caller's goroutine; it blocks while the
	// person answers.
	serve func(b *Bridge, ctx context.Context, c caller, name string, raw json.RawMessage) *mcp.CallToolResult
}

// toolSpecs are the tools, in the order tools/list shows them. They are set
// in init because serving a call looks its tool's spec up again (specOf),
// which a package-level initializer may not refer to.
var toolSpecs []toolSpec

func init() {
	toolSpecs = []toolSpec{
		{name: ToolAskUser, define: askUserTool, args: func() askArgs { return new(askUserArgs) }, serve: serveAsk},
		{name: ToolAskConfirm, define: askConfirmTool, args: func() askArgs { return new(askConfirmArgs) }, serve: serveAsk},
		{name: ToolAskChoice, define: askChoiceTool, args: func() askArgs { return new(askChoiceArgs) }, serve: serveAsk},
		{name: ToolAskMultiSelect, define: askMultiSelectTool, args: func() askArgs { return new(askMultiSelectArgs) }, serve: serveAsk},
		{name: ToolAskText, define: askTextTool, args: func() askArgs { return new(askTextArgs) }, serve: serveAsk},
		{name: ToolAskForm, define: askFormTool, args: func() askArgs { return new(askFormArgs) }, serve: serveAsk,
			fields: map[string]string{"message": "message"}},
		// An approval's message is its action; an empty action fails as "message".
		{name: ToolApproval, define: approvalTool, args: func() askArgs { return new(approvalArgs) }, serve: serveAsk,
			fields: map[string]string{"message": "action", "agent_reason": "reason"}},
		// A permission prompt's message and action are Claude Code's tool name.
		{name: ToolPermission, define: permissionTool, serve: servePermission,
			fields: map[string]string{"message": "tool_name", "action": "tool_name"}},
		{name: ToolNotify, define: notifyTool, args: func() askArgs { return new(notifyArgs) }, serve: serveAsk,
			fields: map[string]string{"message": "message"}},
		{name: ToolGetAnswer, define: getAnswerTool, serve: serveGetAnswer},
		{name: ToolCancelQuestion, define: cancelQuestionTool, serve: serveCancel},
	}
	ToolNames = make([]string, len(toolSpecs))
	for i, s := range toolSpecs {
		ToolNames[i] = s.name
	}
}

// specOf returns the spec of the tool called name.
func specOf(name string) (toolSpec, bool) {
	for _, s := range toolSpecs {
		if s.name == name {
			return s, true
		}
	}
	return toolSpec{}, false
}

func serveAsk(b *Bridge, ctx context.Context, c caller, name string, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.ask(ctx, c, name, raw)
	return b.result(name, res, err)
}

func serveGetAnswer(b *Bridge, ctx context.Context, c caller, name string, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.getAnswer(ctx, c, raw)
	return b.result(name, res, err)
}

func serveCancel(b *Bridge, _ context.Context, c caller, name string, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.cancelQuestion(c, raw)
	return b.result(name, res, err)
}

func servePermission(b *Bridge, ctx context.Context, c caller, _ string, raw json.RawMessage) *mcp.CallToolResult {
	pr := b.permissionPrompt(ctx, c, raw)
	return mcp.NewToolResultStructured(pr, pr.text())
}
