package question

// Origin says through which door a question came in, so that the rules
// and the front ends tell its sorts apart by a field rather than by the
// name of the tool that asked (Tool stays what the person and the rules
// read: "permission_prompt", "ask_confirm"). Whoever builds a question
// sets it: the MCP bridge, app/toolcall (every agent tool's permission)
// and the hook service.
type Origin string

// The origins of a question. The zero value is Asktray's own questions and
// notices (the doctor's test, a moved-aside history), and questions
// recorded before origins were, whose tool said nothing of one.
const (
	// OriginAsk is a question an agent wrote with one of Asktray's MCP ask
	// tools (ask_user, ask_text, ask_confirm, ask_choice,
	// ask_multi_select, ask_form) or a notice it sent with notify.
	OriginAsk Origin = "ask"
	// OriginApproval is an approval an agent asked for with
	// request_approval: its Action is a title the agent wrote and its
	// Details the body the rules match.
	OriginApproval Origin = "approval"
	// OriginPermission is an agent asking to run one of its own tools,
	// through permission_prompt or its hook (app/toolcall builds both):
	// its Action is the tool's name and Input the tool's input.
	OriginPermission Origin = "permission"
	// OriginAgentQuestion is a question an agent asks in its own prompt,
	// brought to the tray by its hook (Claude Code's AskUserQuestion).
	OriginAgentQuestion Origin = "agent_question"
	// OriginAgentNotice is an agent's own notification, brought by its
	// hook ("Claude needs your permission"); its Header says who asks and
	// where.
	OriginAgentNotice Origin = "agent_notice"
)

// Valid reports whether o is one of the origins, the zero value included.
func (o Origin) Valid() bool {
	switch o {
	case "", OriginAsk, OriginApproval, OriginPermission, OriginAgentQuestion, OriginAgentNotice:
		return true
	}
	return false
}
