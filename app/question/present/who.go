package present

import (
	"path"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolinput"
)

// Headline says who asks and where, to lead a question with: "claude-code
// wants to run a shell command in ~/projects/payments-service" for an agent
// tool's permission (what the tool does, from toolinput.Does), "… asks for
// your approval in …" for another approval, an agent's own notification's
// header, which names the agent and where it waits ("Claude Code is asking in
// its terminal"; its message starts with the project and session), "… says"
// for another notice and "… asks in …" for the rest; the where is the working
// directory the agent or its hook reported (Question.Cwd), with home as "~",
// left out when there is none. An agent on another host (Question.Host) is
// named with it ("claude-code on build-01 wants to run …"), its directory
// written out in full. Shown with invisible characters as markers.
// home is the person's home directory, or "".
func Headline(q *question.Question, home string) string {
	who := Who(q)
	if q.Host != "" {
		home = "" // the desktop's home is not the host's
	}
	where := ""
	if q.Cwd != "" {
		where = " in " + Visible(HomePath(q.Cwd, home))
	}
	switch {
	case IsAgentNotice(q):
		return Visible(q.Header) + onHost(q)
	case q.Kind == question.KindNotice:
		return who + " says"
	case IsToolApproval(q) && toolinput.Does(q.Action) != "":
		return who + " wants to " + toolinput.Does(q.Action) + where
	case IsToolApproval(q):
		return who + " wants to use " + Visible(q.Action) + where
	case q.Kind == question.KindApproval:
		return who + " asks for your approval" + where
	}
	return who + " asks" + where
}

// Who names the asking client and, for an agent elsewhere (Question.Host),
// where it runs: "claude-code", "claude-code on build-01"; with invisible
// characters as markers.
func Who(q *question.Question) string {
	return Visible(q.Client.DisplayName()) + onHost(q)
}

// onHost is " on HOST" for a question from another host, else "".
func onHost(q *question.Question) string {
	if q.Host == "" {
		return ""
	}
	return " on " + Visible(q.Host)
}

// IsAgentNotice reports whether q is a notice made from an agent's own
// notification (question.OriginAgentNotice, set only by the hook service)
// whose header says who asks and where ("Claude Code is asking in its
// terminal").
func IsAgentNotice(q *question.Question) bool {
	return q.Kind == question.KindNotice && q.Origin == question.OriginAgentNotice && q.Header != ""
}

// IsToolApproval reports whether q asks to let an agent's own tool run (a
// permission, question.OriginPermission: permission_prompt or an agent
// hook) and carries the tool's input, which is shown; its Action is the
// tool's name rather than a title the agent wrote.
func IsToolApproval(q *question.Question) bool {
	return q.Kind == question.KindApproval && q.Origin == question.OriginPermission && len(q.Input) > 0
}

// HomePath writes dir with the home directory home as "~" ("~/src/shop").
func HomePath(dir, home string) string {
	home = strings.TrimSuffix(home, "/")
	switch {
	case home == "" || home == "/":
		return dir
	case dir == home:
		return "~"
	case strings.HasPrefix(dir, home+"/"):
		return "~" + dir[len(home):]
	}
	return dir
}

// Project names the project a working directory is: its last element
// ("payments-service"), or "" for none.
func Project(cwd string) string {
	base := path.Base(strings.ReplaceAll(strings.TrimRight(cwd, `/\`), `\`, "/"))
	if base == "." || base == "/" || base == "" {
		return ""
	}
	return base
}

// SessionLine says which client asks and which of its sessions: its name (with
// its id when it has a title) and version, then the session by its project
// (Project of cwd) and the time it started (the first question Asktray saw
// from it, in loc), not by a hash: "claude-code 2.1.3  · session in
// payments-service since 14:02". Without a start time the session's short id
// stands in.
func SessionLine(c question.Client, cwd string, started time.Time, loc *time.Location) string {
	parts := []string{c.DisplayName()}
	if c.Title != "" && c.Name != "" {
		parts[0] += " (" + c.Name + ")"
	}
	if c.Version != "" {
		parts[0] += " " + c.Version
	}
	if c.SessionID == "" {
		return Visible(parts[0])
	}
	s := "session"
	if p := Project(cwd); p != "" {
		s += " in " + p
	}
	if started.IsZero() {
		s += " " + ShortSession(c.SessionID)
	} else {
		s += " since " + started.In(loc).Format("15:04")
	}
	return Visible(strings.Join(append(parts, s), Sep))
}
