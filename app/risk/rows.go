package risk

import (
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/shellcmd"
)

// A row grades one simple command (its words, wrappers such as sudo or
// xargs already looked through): it returns the reason it is high, or "".
type row func(name string, args []string) string

// highRows is the table of what makes a command high risk, one row per
// kind of harm. Each has a test in risk_test.go.
var highRows = []row{
	rowDelete, rowHistory, rowDatabase, rowPrivilege, rowPermissions, rowDisk, rowUpload,
}

// readOnly are the commands that only read, with the arguments that would
// make them write or run something else.
var readOnly = map[string]func(args []string) bool{
	"ls": always, "cat": always, "head": always, "tail": always, "wc": always, "pwd": always,
	"echo": always, "printf": always, "grep": always, "egrep": always, "fgrep": always, "rg": always,
	"which": always, "type": always, "file": always, "stat": always, "du": always, "df": always,
	"tree": always, "uniq": always, "diff": always, "date": always, "whoami": always, "id": always,
	"basename": always, "dirname": always, "realpath": always, "true": always, "cd": always,
	"find": func(args []string) bool {
		return !slices.ContainsFunc(args, func(a string) bool {
			return slices.Contains([]string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}, a)
		})
	},
	"git": func(args []string) bool {
		sub := gitSub(args)
		return slices.Contains([]string{"status", "diff", "log", "show", "blame", "rev-parse", "ls-files", "shortlog", "describe"}, sub)
	},
	"sort": func(args []string) bool { return !hasFlag(args, "o", "output") },
}

func always([]string) bool { return true }

// ShellCommand grades the Bash command line cmd run in cwd ("" when
// unknown): the highest grade of its simple commands. It is low only when
// every command only reads and nothing is written; a line that does not
// parse is medium, with the reason; one that holds a hidden character
// (see question.Invisible) is high.
func ShellCommand(cmd, cwd string) Grade {
	g := shellGrade(cmd, cwd)
	hidden(&g, []string{cmd})
	return g
}

func shellGrade(cmd, cwd string) Grade {
	l, err := shellcmd.Split(cmd)
	if err != nil {
		g := Grade{Risk: question.RiskMedium, Reasons: []string{"the command could not be read as Bash"}}
		if errors.Is(err, shellcmd.ErrControl) {
			g.Reasons = []string{"the command holds a control character (carriage return, NUL, escape, …)"}
		}
		return g
	}
	lg := lineGrade{cwd: cwd, low: len(l.Commands) > 0}
	for _, c := range l.Commands {
		lg.redirects(c.Redirects)
		if c.Unpacked {
			continue
		}
		for _, p := range unwrap(c) {
			lg.part(p, len(c.Assigns) > 0)
		}
	}
	if lg.downloads && lg.shells {
		lg.g.high("runs a downloaded script, `curl … | sh`")
	}
	switch {
	case lg.g.Risk == question.RiskHigh:
		return lg.g
	case lg.low:
		return Grade{Risk: question.RiskLow, Reasons: []string{"only reads"}}
	}
	return Grade{Risk: question.RiskMedium}
}

// lineGrade gathers a command line's grade over its commands.
type lineGrade struct {
	g                 Grade
	cwd               string
	low               bool // every command so far only reads
	downloads, shells bool
}

func (lg *lineGrade) redirects(rs []shellcmd.Redirect) {
	for _, r := range rs {
		t := r.Target.Value
		if cr := credential(t); cr != "" && r.Target.Literal {
			lg.g.high("reads or writes credentials, `" + cr + "`")
		}
		if !r.Writes {
			continue
		}
		lg.low = lg.low && r.Target.Literal && t == "/dev/null"
		if r.Target.Literal && outside(t, lg.cwd) {
			lg.g.high("writes outside the working directory, `" + r.Op + " " + t + "`")
		}
		runsLater(&lg.g, r.Op, t)
	}
}

func (lg *lineGrade) part(p part, assigns bool) {
	name, args := p.name, p.args
	if p.via != "" {
		lg.low = false
	}
	for _, a := range append([]string{name}, args...) {
		if cr := credential(a); cr != "" {
			lg.g.high("reads or writes credentials, `" + cr + "`")
		}
	}
	for _, rw := range highRows {
		if why := rw(name, args); why != "" {
			lg.g.high(why)
		}
	}
	lg.computed(p)
	lg.downloads = lg.downloads || name == "curl" || name == "wget" || name == "fetch"
	lg.shells = lg.shells || isInterpreter(name)
	if name == "tee" || name == "cp" || name == "mv" || name == "install" {
		if dst := lastPath(args); dst != "" && outside(dst, lg.cwd) {
			lg.g.high("writes outside the working directory, `" + name + " … " + dst + "`")
		}
	}
	if ro, ok := readOnly[name]; !ok || !ro(args) || assigns {
		lg.low = false
	}
}

// part is one command to grade: a command's words, or those of a command
// a wrapper (sudo, env, xargs, find -exec, busybox, …) runs, via names the
// wrapper. words are the name and args as the splitter read them.
type part struct {
	name, via string
	args      []string
	words     []shellcmd.Word
}

// wrappers run the command in their arguments; the value skips the
// wrapper's own options and returns where the command starts.
var wrappers = map[string]func(args []string) int{
	"sudo": skipFlags("u", "g", "C", "D", "h", "p", "r", "t", "U"), "doas": skipFlags("u", "C"),
	"env": skipEnv, "nice": skipFlags("n"), "nohup": skipFlags(), "time": skipFlags(),
	"command": skipFlags(), "builtin": skipFlags(), "exec": skipFlags("a"), "stdbuf": skipFlags("i", "o", "e"),
	"ionice": skipFlags("c", "n", "p"), "xargs": skipFlags("a", "d", "E", "I", "L", "n", "P", "s"),
	// Multi-call binaries run the applet their first argument names.
	"busybox": skipFlags(), "toybox": skipFlags(),
	"timeout": func(args []string) int {
		i := skipFlags("k", "s")(args)
		return min(i+1, len(args)) // the duration
	},
}

// unwrap returns c's command and every command its wrappers and find -exec run.
func unwrap(c shellcmd.Command) []part {
	words := make([]string, 0, len(c.Words))
	for _, w := range c.Words {
		words = append(words, w.Value)
	}
	ws := c.Words
	var out []part
	via := ""
	for len(words) > 0 {
		name := path.Base(words[0])
		args := words[1:]
		out = append(out, part{name: name, args: args, via: via, words: ws})
		if name == "find" {
			for i, a := range args {
				if a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" {
					end := slices.IndexFunc(args[i+1:], func(s string) bool { return s == ";" || s == "+" })
					if end < 0 {
						end = len(args) - i - 1
					}
					if end > 0 {
						sub := args[i+1 : i+1+end]
						out = append(out, part{name: path.Base(sub[0]), args: sub[1:], via: "find", words: ws[i+2 : i+2+end]})
					}
				}
			}
		}
		skip, ok := wrappers[name]
		if !ok {
			break
		}
		via = name
		n := skip(args)
		words, ws = args[n:], ws[1+n:]
	}
	return out
}

// skipFlags returns a skipper of options, those in withArg taking the next
// word as their argument.
func skipFlags(withArg ...string) func(args []string) int {
	return func(args []string) int {
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--":
				return i + 1
			case !strings.HasPrefix(a, "-") || a == "-":
				return i
			case len(a) == 2 && slices.Contains(withArg, a[1:]):
				i++
			}
		}
		return len(args)
	}
}

func skipEnv(args []string) int {
	i := skipFlags("u", "C", "S")(args)
	for i < len(args) && strings.Contains(args[i], "=") && !strings.HasPrefix(args[i], "=") {
		i++
	}
	return i
}

// hasFlag reports whether args hold one of the short options (alone or in a
// cluster, "-rf") or long ones ("--force", "--force=…"), a long one also
// by any prefix ("--rec", "--forc"): GNU tools and git take an unambiguous
// prefix of a long option, and which prefixes are unambiguous depends on
// the tool's version, so every prefix counts.
func hasFlag(args []string, short string, long ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch {
		case strings.HasPrefix(a, "--"):
			n, _, _ := strings.Cut(a[2:], "=")
			if n != "" && slices.ContainsFunc(long, func(l string) bool { return strings.HasPrefix(l, n) }) {
				return true
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsAny(a[1:], short) {
				return true
			}
		}
	}
	return false
}

func gitSub(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// isInterpreter reports whether name runs the code it reads (source and
// eval too: curl … | source /dev/stdin).
func isInterpreter(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node", "php", "source", ".", "eval":
		return true
	}
	return false
}

// lastPath is the last argument that is not an option.
func lastPath(args []string) string {
	for _, a := range slices.Backward(args) {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func rowDelete(name string, args []string) string {
	switch name {
	case "rm":
		switch {
		case hasFlag(args, "rR", "recursive"):
			return "deletes files recursively, `rm -r`"
		case hasFlag(args, "f", "force"):
			return "deletes files by force, `rm -f`"
		}
	case "find":
		if slices.Contains(args, "-delete") {
			return "deletes files, `find -delete`"
		}
	case "shred", "srm":
		return "destroys files, `" + name + "`"
	}
	return ""
}

func rowHistory(name string, args []string) string {
	if name != "git" {
		return ""
	}
	sub := gitSub(args)
	rest := args[slices.Index(args, sub)+1:]
	switch sub {
	case "push":
		if hasFlag(rest, "f", "force", "force-with-lease", "mirror", "delete") || slices.ContainsFunc(rest, func(a string) bool { return strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":") }) {
			return "rewrites history on a remote, `git push --force`"
		}
	case "reset":
		if hasFlag(rest, "", "hard") {
			return "throws away changes, `git reset --hard`"
		}
	case "clean":
		if hasFlag(rest, "f", "force") {
			return "deletes untracked files, `git clean -f`"
		}
	case "filter-branch", "filter-repo":
		return "rewrites history, `git " + sub + "`"
	case "checkout", "restore":
		if slices.Contains(rest, ".") || slices.Contains(rest, "--") && hasFlag(rest, "f", "force") {
			return "throws away changes, `git " + sub + " .`"
		}
	}
	return ""
}

// sqlDropRE finds statements that drop or empty a database or table.
var sqlDropRE = regexp.MustCompile(`(?i)\b(drop\s+(table|database|schema|collection|keyspace)\b[^;\n]{0,60}|truncate\s+(table\s+)?[\w."]+|flushall|flushdb|dropDatabase\(\))`)

// sqlDrop returns the first statement in ss that drops or empties a
// database, shortened, or "".
func sqlDrop(ss []string) string {
	for _, s := range ss {
		if m := sqlDropRE.FindString(s); m != "" {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

func rowDatabase(name string, args []string) string {
	switch name {
	case "dropdb", "dropuser":
		return "drops a database, `" + name + "`"
	}
	if s := sqlDrop(args); s != "" {
		return "drops or truncates a database, `" + s + "`"
	}
	return ""
}

func rowPrivilege(name string, _ []string) string {
	switch name {
	case "sudo", "su", "doas", "pkexec", "runas":
		return "runs as another user, `" + name + "`"
	}
	return ""
}

func rowPermissions(name string, args []string) string {
	switch name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		if hasFlag(args, "R", "recursive") {
			return "changes ownership or permissions recursively, `" + name + " -R`"
		}
	}
	return ""
}

func rowDisk(name string, _ []string) string {
	switch {
	case name == "dd", name == "fdisk", name == "sfdisk", name == "gdisk", name == "parted", name == "wipefs",
		name == "mkswap", name == "diskutil", name == "format", name == "diskpart", strings.HasPrefix(name, "mkfs"):
		return "writes to a disk directly, `" + name + "`"
	}
	return ""
}

func rowUpload(name string, args []string) string {
	switch name {
	case "scp", "sftp", "ftp", "nc", "ncat", "netcat", "socat":
		return "sends files over the network, `" + name + "`"
	case "rsync":
		if slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") && strings.Contains(a, ":") }) {
			return "sends files over the network, `rsync` to a remote"
		}
	case "curl":
		for i, a := range args {
			data := a == "-T" || a == "--upload-file" || ((a == "-d" || a == "-F" || strings.HasPrefix(a, "--data") || a == "--form") && i+1 < len(args) && strings.Contains(args[i+1], "@"))
			if data || strings.HasPrefix(a, "-d@") || strings.HasPrefix(a, "--data-binary=@") {
				return "sends files over the network, `curl " + a + "`"
			}
		}
	case "wget":
		if hasFlag(args, "", "post-file", "body-file") {
			return "sends files over the network, `wget --post-file`"
		}
	}
	return ""
}

// credential returns the credential path s names (~/.ssh, ~/.aws,
// ~/.config/gh, .env, …), shortened to that part, or "".
func credential(s string) string {
	for _, c := range []string{".ssh", ".aws", ".config/gh", ".gnupg", ".kube", ".docker/config.json", ".netrc", ".git-credentials", ".npmrc", ".pypirc"} {
		if i := strings.Index(s, c); i >= 0 && (i == 0 || strings.ContainsRune("/~=\"'", rune(s[i-1]))) {
			end := i + len(c)
			if end == len(s) || s[end] == '/' {
				return "~/" + c
			}
		}
	}
	base := path.Base(s)
	if base == ".env" || strings.HasPrefix(base, ".env.") && base != ".env.example" && base != ".env.sample" {
		return base
	}
	return ""
}
