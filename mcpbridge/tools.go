package mcpbridge

import (
	"github.com/mark3labs/mcp-go/mcp"
)

// Tool names. They are fixed: agents and user configs refer to them.
const (
	ToolAskUser        = "ask_user"
	ToolAskConfirm     = "ask_confirm"
	ToolAskChoice      = "ask_choice"
	ToolAskMultiSelect = "ask_multi_select"
	ToolAskText        = "ask_text"
	ToolAskForm        = "ask_form"
	ToolApproval       = "request_approval"
	ToolPermission     = "permission_prompt"
	ToolNotify         = "notify"
	ToolGetAnswer      = "get_answer"
	ToolCancelQuestion = "cancel_question"
)

// ToolNames lists every tool in the order tools/list shows them: the order
// of toolSpecs (set with them).
var ToolNames []string

const waitNote = " If the result has status pending, the user has not answered yet: call get_answer with its question_id (do not ask again, and do not proceed without the answer). Always follow next_step."

const questionDesc = "The question, in Markdown. Say exactly what you need and why; the user may be busy. Up to 4096 characters."

// Instructions tell the model which tool fits which need.
const Instructions = `Asktray asks the person at the desk and returns their answer.
- ask_confirm: a yes/no decision, and always before a destructive or irreversible action (delete, overwrite, force-push, migrate, publish). Name the exact target and consequence; set destructive.
- ask_choice / ask_multi_select: pick one / several of 2-20 options.
- ask_user: an open question with up to 3 suggested answers.
- ask_text: free text with length limits (a name, a message, a commit text).
- ask_form: several typed fields at once (an MCP elicitation requestedSchema).
- request_approval: permission for one concrete action you are about to take (a command, a deploy, a file change): a short action title, the exact details in Markdown, a risk grade and your reason. Returns decision allow or deny; only allow means go ahead, and only with exactly what you described. The user's rules may answer it at once (rule_id).
- permission_prompt: not for you to call; Claude Code calls it through --permission-prompt-tool.
- notify: tell the person something; no answer comes back.
Every result has a status and a next_step: follow next_step. Only status answered (or auto_approved, when a rule the user made decided) carries an answer. declined, cancelled, auto_rejected (timeout, away, rule), withdrawn and interrupted all mean: you do not have permission; do not proceed as if the user agreed, and never guess an answer. needs_user_input means the user is away and wants the question asked in your own chat: ask them what message says there and use their reply.
If status is pending, the person has not answered yet: call get_answer with the question_id, as often as needed. Asking the same question again re-attaches to the open one; it does not open a second dialog.`

func annotations(title string, readOnly, destructive, idempotent bool) mcp.ToolOption {
	return mcp.WithToolAnnotation(mcp.ToolAnnotation{
		Title: title, ReadOnlyHint: &readOnly, DestructiveHint: &destructive,
		IdempotentHint: &idempotent, OpenWorldHint: new(false),
	})
}

func newTool(name, title, desc string, in, out []byte, readOnly, destructive, idempotent bool) mcp.Tool {
	t := mcp.NewToolWithRawSchema(name, desc, in)
	for _, opt := range []mcp.ToolOption{mcp.WithRawOutputSchema(out), annotations(title, readOnly, destructive, idempotent)} {
		opt(&t)
	}
	t.Title = title
	return t
}

// Tools returns the definitions of every tool, in ToolNames order. Asking
// changes nothing but the person's attention and the history, so no tool is
// destructive or open-world; the ask tools are not idempotent because each
// call may open a dialog, while re-asking the same question re-attaches.
// It builds new values on each call and may be called from any goroutine.
func Tools() []mcp.Tool {
	tools := make([]mcp.Tool, len(toolSpecs))
	for i, s := range toolSpecs {
		tools[i] = s.define(s.name)
	}
	return tools
}

// header is the optional heading every asking tool takes.
func header() obj {
	return strMax("Optional short heading shown above the question, up to 64 characters.", 64)
}

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

// approvalTool defines request_approval.
func approvalTool(name string) mcp.Tool {
	return newTool(name, "Request approval for an action",
		"Ask the user to approve one concrete action before you take it: running a command, deploying, changing or deleting files, spending money, contacting someone. Give a short action title (it is what the user's \"always allow\" rules match, so keep it stable for the same kind of action, e.g. \"Deploy to staging\"), the exact details in Markdown (the full command, the paths, a diff), a risk grade and your reason. Returns decision: allow (go ahead with exactly this action, once, unless scope says a rule covers it) or deny (do not do it; message may say why or what to do instead). A rule the user made may decide at once (status auto_approved or auto_rejected, with rule_id). High-risk actions are never allowed by a general rule."+waitNote,
		input(obj{
			"action":  obj{"type": "string", "minLength": 1, "maxLength": 200, "description": "Short title of the action, e.g. \"Deploy to production\" or \"Delete 3 branches\". Up to 200 characters."},
			"details": obj{"type": "string", "maxLength": 65536, "description": "Exactly what will happen, in Markdown: the full command in a code block, the files or resources affected, a diff. Up to 65536 characters."},
			"risk":    obj{"type": "string", "enum": []string{"low", "medium", "high"}, "description": "How bad it is if this goes wrong (default medium). Use high for anything irreversible, destructive or touching production."},
			"reason":  obj{"type": "string", "maxLength": 2048, "description": "Why you need to do this now. Up to 2048 characters."},
		}, []string{"action"}, true),
		output(obj{
			"decision": obj{"type": "string", "enum": []string{"allow", "deny"}, "description": "allow only when the user (or their rule) approved; absent while pending."},
			"scope":    obj{"type": "string", "enum": []string{"once", "session", "always"}, "description": "once: this call only; session or always: a rule the user made covers it."},
		}),
		true, false, false)
}

// permissionTool defines permission_prompt.
func permissionTool(name string) mcp.Tool {
	return newTool(name, "Claude Code permission prompt",
		"Permission prompt for Claude Code's --permission-prompt-tool: Claude Code calls it with tool_name, input and tool_use_id before running a tool, and gets back as text {\"behavior\":\"allow\",\"updatedInput\":{...}} or {\"behavior\":\"deny\",\"message\":\"...\"}. The request shows in Asktray like request_approval. Models should call request_approval instead.",
		permissionInput(),
		permissionOutput(),
		true, false, false)
}

// notifyTool defines notify.
func notifyTool(name string) mcp.Tool {
	return newTool(name, "Notify the user",
		"Tell the user something without asking: a long task finished, a deploy started, you are blocked and waiting. Shows a notification and keeps a history row; returns at once. Do not use it for questions: nothing comes back.",
		input(obj{
			"message":         str("What to tell the user, in Markdown. Up to 4096 characters."),
			"header":          header(),
			"timeout_seconds": obj{"type": "integer", "description": "How long the notice stays open for the user to acknowledge, in seconds (default 3600; clamped to 10..86400)."},
		}, []string{"message"}, false),
		output(obj{}),
		false, false, false)
}

// getAnswerTool defines get_answer.
func getAnswerTool(name string) mcp.Tool {
	return newTool(name, "Get the answer to a question",
		"Fetch the outcome of a question you asked earlier (status pending, or your call timed out), waiting up to wait_seconds for the user. Returns the same result the ask tool would have returned; if status is still pending, call get_answer again.",
		input(obj{
			"question_id":  str("The question_id from the earlier result."),
			"wait_seconds": integer("How long to wait for the answer (0 returns at once). Capped at what your client tolerates.", 0, 3600),
		}, []string{"question_id"}, false),
		output(obj{
			"answer": str("ask_user, ask_text, ask_confirm: the answer."), "source": str("ask_user: choice or free_text."),
			"confirmed": boolean("ask_confirm: true only on yes."), "selected": obj{"type": "array", "items": obj{"type": "string"}},
			"free_text": str("ask_choice, ask_multi_select: the note."), "action": obj{"type": "string", "enum": []string{"accept", "decline", "cancel"}},
			"content":  obj{"type": "object"},
			"decision": obj{"type": "string", "enum": []string{"allow", "deny"}}, "scope": obj{"type": "string", "enum": []string{"once", "session", "always"}},
		}),
		true, false, true)
}

// cancelQuestionTool defines cancel_question.
func cancelQuestionTool(name string) mcp.Tool {
	return newTool(name, "Withdraw a question",
		"Withdraw a question you asked that is still pending, because you no longer need the answer: its dialog closes and the history records it as withdrawn. Returns its final status; if the user had already answered, that answer is returned instead.",
		input(obj{"question_id": str("The question_id to withdraw.")}, []string{"question_id"}, false),
		output(obj{}),
		false, false, true)
}
