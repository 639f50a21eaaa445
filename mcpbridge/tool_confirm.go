package mcpbridge

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolAskConfirm is a yes/no decision. The name is fixed: agents and user
// configs refer to it.
const ToolAskConfirm = "ask_confirm"

var askConfirmSpec = &toolSpec{name: ToolAskConfirm, define: askConfirmTool, args: func() askArgs { return new(askConfirmArgs) }, serve: serveAsk}

// askConfirmTool defines ask_confirm.
func askConfirmTool(name string) mcp.Tool {
	return newTool(name, "Ask for a yes/no confirmation",
		"Get explicit approval before a destructive or irreversible action (deleting, overwriting, migrating, force-pushing, publishing), or any binary decision the user should own. State the exact target and the consequence in question, not just \"are you sure?\", and set destructive for actions that lose data. Returns confirmed (true only when the user said yes) and answer (\"yes\" or \"no\"). Any status other than answered means no: do not proceed."+waitNote,
		input(obj{
			"question":    str(questionDesc + " Name the exact target and consequence."),
			"header":      header(),
			"default":     obj{"type": "string", "enum": []string{"yes", "no"}, "description": "Pre-selected answer. Omit it for real decisions. With destructive, \"yes\" is refused: yes is never pre-selected for a destructive action."},
			"destructive": boolean("The action destroys or overwrites data, or cannot be undone. The dialog warns and makes No the default button."),
			"yes_label":   strMax("Label for the yes button naming the action, e.g. \"Delete 3 files\". Up to 40 characters.", 40),
			"no_label":    strMax("Label for the no button, e.g. \"Keep them\". Up to 40 characters.", 40),
		}, []string{"question"}, true),
		output(obj{"confirmed": boolean("True only when the user said yes."), "answer": obj{"type": "string", "enum": []string{"yes", "no"}}}),
		true, false, false)
}

type askConfirmArgs struct {
	askCommon
	Question    string  `json:"question"`
	Header      string  `json:"header"`
	Default     *string `json:"default"`
	Destructive bool    `json:"destructive"`
	YesLabel    string  `json:"yes_label"`
	NoLabel     string  `json:"no_label"`
}

func (in *askConfirmArgs) toAsk() ask {
	return ask{common: in.askCommon, q: question.Question{Kind: question.KindConfirm, Message: in.Question, Header: in.Header,
		Default: quote(in.Default), Destructive: in.Destructive, YesLabel: in.YesLabel, NoLabel: in.NoLabel}}
}
