// Package doctor checks how this machine's agents and MCP clients reach
// Asktray: for every client and agent with an asktray entry, whether the
// entry is there and points at this binary and data dir (or at the app's URL
// with the current token), whether the app answers, what the agent's own
// trust state says (Claude Code's disableAllHooks, Codex's hook review,
// Copilot CLI's hook switch and folder trust, Gemini CLI's folder trust),
// and, through the exact installed hook command line, whether a test request
// reaches the app, which shows it as a notice. 'asktray doctor' (app/cli)
// and the tray's Connect window (ui) both run Check.
//
// It reads files and runs the installed hook commands; it writes nothing.
// It imports only the standard library, app/clientsetup, app/datadir,
// app/hook and the parsers of the config formats (app/doctor/doctor_test.go enforces that):
// the front ends hand it what it needs of the running app.
package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/datadir"
)

// Status is how a Line reads.
type Status int

// The statuses.
const (
	Fine    Status = iota // as it should be
	Note                  // worth knowing, nothing to fix
	Problem               // to fix; Check's report is not OK
	Unused                // the client or agent has no asktray entry
)

// Line is one finding.
type Line struct {
	Status Status `json:"status"`
	Client string `json:"client,omitempty"` // the client or agent ("claude-code"), "" for the app
	What   string `json:"what"`             // "app", "MCP", "hooks", "trust", "test", or Claude Code's "agent", "mode" and "workspace"
	File   string `json:"file,omitempty"`   // the file it is about, when there is one
	Key    string `json:"key,omitempty"`    // the key in File, dotted, when there is one
	Text   string `json:"text"`             // what was found, and for a Problem what to do
}

// String is the line as 'asktray doctor' prints it.
func (l Line) String() string {
	tag := map[Status]string{Fine: "ok  ", Note: "note", Problem: "FIX ", Unused: "-   "}[l.Status]
	who := l.What
	if l.Client != "" {
		who = l.Client + " " + l.What
	}
	where := l.File
	if l.Key != "" {
		where += " " + l.Key
	}
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s %s: %s%s", tag, who, where, l.Text)
}

// MarshalText spells a Status as the JSON output does: ok, note, fix or
// unused.
func (s Status) MarshalText() ([]byte, error) {
	return []byte(map[Status]string{Fine: "ok", Note: "note", Problem: "fix", Unused: "unused"}[s]), nil
}

// Report is what Check found, in order.
type Report struct {
	Lines []Line `json:"lines"`
}

// OK reports whether nothing needs fixing.
func (r Report) OK() bool { return len(r.Problems()) == 0 }

// Problems returns the lines to fix.
func (r Report) Problems() []Line {
	var out []Line
	for _, l := range r.Lines {
		if l.Status == Problem {
			out = append(out, l)
		}
	}
	return out
}

// Write prints r, one line per finding, and a last line that says whether
// everything is fine.
func (r Report) Write(w io.Writer) error {
	for _, l := range r.Lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	n := len(r.Problems())
	var err error
	switch n {
	case 0:
		_, err = fmt.Fprintln(w, "Everything is fine.")
	case 1:
		_, err = fmt.Fprintln(w, "1 problem to fix (the FIX line above).")
	default:
		_, err = fmt.Fprintf(w, "%d problems to fix (the FIX lines above).\n", n)
	}
	return err
}

func (r *Report) add(l Line) { r.Lines = append(r.Lines, l) }

// Env is what Check reads besides the files.
type Env struct {
	Sys     clientsetup.Sys
	DataDir string // absolute
	// DefaultDataDir is the data dir a command without --data-dir uses.
	DefaultDataDir string
	// Cwd is the folder whose trust the agents' folder trust is read for.
	Cwd string
	// Server is where the app serves MCP and its current token; Running
	// false when no app answered (then URL is the mcp_port setting's).
	Server clientsetup.Server
	// AppPID is the running app's process, for the report (0: unknown).
	AppPID int
	// Deadline is the person's question deadline, which a hook's timeout
	// must leave room for.
	Deadline time.Duration
	// Test sends a test request through each installed hook command (needs
	// a running app).
	Test bool
	// Notice reports whether the app shows the question id as a notice; it
	// confirms a test request. It may block briefly.
	Notice func(ctx context.Context, id string) error
	// Probe sends an HTTP request to an MCP URL with the entry's
	// Authorization header and returns the status; nil sends none. The CLI
	// sends what reaches the app's guard and no further (HTTPProbe).
	Probe func(ctx context.Context, url, authorization string) (int, error)
	// Run runs a hook command line (argv) with stdin; nil runs the process.
	Run func(ctx context.Context, argv []string, stdin []byte) (stdout, stderr []byte, err error)
}

// Check looks at every client and agent (see the package doc) and returns
// what it found. It blocks while it reads the files and while each test
// request runs (at most testTimeout each); ctx ends it early. Any goroutine
// may call it.
func Check(ctx context.Context, env Env) Report {
	var r Report
	checkApp(&r, env)
	for _, client := range clientsetup.Clients() {
		checkMCP(ctx, &r, env, client)
	}
	for _, agent := range clientsetup.HookAgents() {
		checkHooks(ctx, &r, env, agent)
	}
	return r
}

func checkApp(r *Report, env Env) {
	sock := filepath.Join(env.DataDir, datadir.SocketFile)
	if !env.Server.Running {
		r.add(Line{Status: Problem, What: "app", File: sock,
			Text: "no Asktray answers for this data dir: start it ('asktray', or 'asktray --headless'); until then every hook steps aside and no MCP client connects"})
		return
	}
	pid := ""
	if env.AppPID > 0 {
		pid = fmt.Sprintf(" (pid %d)", env.AppPID)
	}
	r.add(Line{Status: Fine, What: "app", File: sock, Text: "Asktray answers" + pid + "; MCP at " + env.Server.URL})
}

// sameProgram reports whether prog names the executable exe.
func sameProgram(prog, exe string) bool {
	if prog == exe {
		return true
	}
	a, errA := os.Stat(prog)
	b, errB := os.Stat(exe)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// programProblem says what is wrong with prog, the program an entry runs,
// or "" when it is this executable.
func programProblem(prog, exe string) string {
	if sameProgram(prog, exe) {
		return ""
	}
	if _, err := os.Stat(prog); err != nil {
		return fmt.Sprintf("runs %s, which does not exist (this asktray is %s)", prog, exe)
	}
	return fmt.Sprintf("runs %s, not this asktray (%s)", prog, exe)
}

// firstLine is s's first non-empty line, trimmed, or "".
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
