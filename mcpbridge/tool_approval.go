package mcpbridge

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/risk"
)

// ToolApproval asks permission for one concrete action. The name is fixed:
// agents and user configs refer to it.
const ToolApproval = "request_approval"

// approvalSpec: an approval's message is its action; an empty action fails
// as "message".
var approvalSpec = &toolSpec{name: ToolApproval, define: approvalTool, args: func() askArgs { return new(approvalArgs) }, serve: serveAsk,
	origin: question.OriginApproval, fields: map[string]string{"message": "action", "agent_reason": "reason"}}

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

type approvalArgs struct {
	askCommon
	Action  string        `json:"action"`
	Details string        `json:"details"`
	Risk    question.Risk `json:"risk"`
	Reason  string        `json:"reason"`
}

func (in *approvalArgs) toAsk() ask {
	level := in.Risk
	if level == "" {
		level = question.RiskMedium
	}
	q := question.Question{Kind: question.KindApproval, Message: in.Action, Action: in.Action,
		Details: in.Details, Risk: level, AgentReason: in.Reason}
	// What the details say it does can raise the agent's own grade, never
	// lower it.
	if g := risk.Text(in.Action + "\n" + in.Details); g.Risk == question.RiskHigh {
		q.Risk, q.RiskWhy = g.Risk, clipRunes(g.Why(), question.MaxRiskWhy)
	}
	return ask{common: in.askCommon, q: q}
}
