package present

import "github.com/asktray/asktray/app/question"

// Afterwards says what was learnt of r's outcome after it was recorded
// (Result.Afterwards), as a sentence for the history's detail, and short for
// a row or a table; both are "" when nothing was.
func Afterwards(r *question.Result) (sentence, short string) {
	if r == nil {
		return "", ""
	}
	switch r.Afterwards {
	case "":
		return "", ""
	case question.ReasonAgentProceeded:
		return "The agent had already proceeded: it was answered in the agent's own terminal first, so this decision did not count.",
			"agent had already proceeded"
	case question.ReasonAgentBlocked:
		return "The agent's own automatic check blocked it all the same (Claude Code's auto mode): the call did not run.",
			"blocked by the agent's auto mode"
	}
	return string(r.Afterwards), string(r.Afterwards)
}

// WithdrawnWhy says in a few words why a withdrawn question was withdrawn
// when the app knows it ("host disconnected": a remote host's SSH
// connection ended while it was pending), for the history's rows and the
// CLI's table; "" otherwise.
func WithdrawnWhy(r *question.Result) string {
	if r != nil && r.Outcome == question.Withdrawn && r.Reason == question.ReasonHostDisconnected {
		return "host disconnected"
	}
	return ""
}

// AgentAsksToo is what a tool approval of an agent that shows its own
// prompt while the tray asks (Claude Code, through its hook) says of that
// prompt: that it may have been answered already. name is the agent as a
// person calls it.
func AgentAsksToo(name string) string {
	return name + " asks in its terminal too, and the first answer counts: if it was answered there, " +
		"the command may already be running, and your answer here changes nothing."
}

// AsksFromBackground is what a tool approval says when its agent asks from a
// background server that outlives the agent's terminal (Codex's app server)
// and the hook could not find the terminal asking: the tray cannot tell
// whether anyone still waits there, and an allow still runs the command.
// name is the agent as a person calls it.
func AsksFromBackground(name string) string {
	return name + " may no longer be waiting in its terminal: it asks from its background app server, which outlives " +
		"the terminal, so if you closed that terminal, an allow here still runs the command."
}
