package policy

import "strings"

// Covers says in a person's words which requests r's client and action
// patterns cover, for the rule editors, with code spans around what the
// agent wrote: "`Bash` requests from claude-code", "approval requests `Run
// the migration` from any agent". A pattern with wildcards is quoted as
// written.
func (r Rule) Covers() string {
	return ActionWords(r.Action) + " from " + ClientWords(r.Client)
}

// ClientWords names the agents a client pattern covers: "any agent", the
// agent's name, or "agents matching `claude-*`".
func ClientWords(p string) string {
	switch {
	case p == "*" || p == "":
		return "any agent"
	case IsLiteral(p):
		return unquoteGlob(p)
	}
	return "agents matching `" + p + "`"
}

// ActionWords names the requests an action pattern (ActionKey's
// tool:action) covers in a person's words: "`Bash` requests" for an
// agent's permission prompt or hook, "approval requests `Deploy`" for a
// request_approval, "every request" for *.
func ActionWords(p string) string {
	if p == "*" || p == "" {
		return "every request"
	}
	tool, rest, ok := strings.Cut(p, ":")
	what := func() string {
		if IsLiteral(rest) {
			return "`" + unquoteGlob(rest) + "`"
		}
		return "matching `" + rest + "`"
	}
	switch {
	case !ok:
	case tool == toolPermissionHook || tool == toolPermissionPrompt:
		switch {
		case rest == "*":
			return "every tool's requests"
		case !IsLiteral(rest):
			return "requests of tools matching `" + rest + "`"
		}
		return what() + " requests"
	case tool == toolRequestApproval:
		if rest == "*" {
			return "every approval request"
		}
		return "approval requests " + what()
	}
	if IsLiteral(p) {
		return "`" + unquoteGlob(p) + "` requests"
	}
	return "requests matching `" + p + "`"
}
