package risk

import (
	"path"
	"slices"
	"strings"

	"github.com/asktray/asktray/app/shellcmd"
)

// computed makes the grade high when p hides what it runs from the person
// reading it (a name the shell computes: $'\x72m', "$(printf rm)", $CMD;
// eval; source of a process substitution or an expansion; options the
// shell computes for a command whose options make it dangerous) or writes
// a shell start-up file.
func (lg *lineGrade) computed(p part) {
	if len(p.words) == 0 {
		return
	}
	if computedWord(p.words[0]) {
		lg.g.high("runs a command whose name is computed, so what runs cannot be read, `" + short(p.words[0].Value) + "`")
	}
	switch p.name {
	case "eval":
		lg.g.high("runs a string as code, so what runs cannot be read, `eval`")
	case "source", ".":
		if len(p.words) > 1 && computedWord(p.words[1]) {
			lg.g.high("runs code from a computed file, `" + p.name + " " + short(p.words[1].Value) + "`")
		}
	}
	if sub := gitSub(p.args); p.name == "git" && sub != "" {
		if i := slices.Index(p.args, sub); i+1 < len(p.words) && computedWord(p.words[i+1]) {
			lg.g.high("runs a git command the shell computes, so what it does cannot be read, `git " + short(sub) + "`")
		}
	}
	if optionsMatter(p.name, p.args) {
		for _, w := range p.words[1:] {
			if computedOption(w) {
				lg.g.high("its options are computed, so what it does cannot be read, `" + p.name + " " + short(w.Value) + "`")
				break
			}
		}
	}
	for _, f := range writtenFiles(p.name, p.args) {
		runsLater(&lg.g, p.name+" …", f)
	}
}

// runsLater makes g high when a command (op: "tee …", ">>", "" for a file
// tool) writes f, a file that runs code later: a shell start-up file or a
// git hook.
func runsLater(g *Grade, op, f string) {
	if op != "" {
		op += " "
	}
	if s := startupFile(f); s != "" {
		g.high("writes a shell start-up file, which runs code later, `" + op + short(s) + "`")
	}
	if strings.Contains(f, ".git/hooks/") {
		g.high("writes a git hook, which runs code at a later git command, `" + op + short(f) + "`")
	}
}

// computedWord reports whether the shell computes w (an expansion, a
// substitution, ANSI-C quoting, a glob): anything but a literal word or a
// plain path in the home (~/bin/x, $HOME/bin/x).
func computedWord(w shellcmd.Word) bool {
	if w.Literal {
		return false
	}
	rest, home := strings.CutPrefix(w.Value, "~")
	for _, h := range []string{"$HOME/", "${HOME}/", `"$HOME"/`, `"${HOME}"/`} {
		if r, ok := strings.CutPrefix(w.Value, h); ok {
			rest, home = r, true
		}
	}
	return !home || strings.ContainsAny(rest, "$`*?[{'\"\\")
}

// computedOption reports whether w, an argument, may be an option the
// shell computes: an expansion or quoting that starts it with "-", ANSI-C
// quoting, or a command substitution ("$(printf -- -rf)"). A plain
// variable ($f, "$f") is not counted: it usually names a file.
func computedOption(w shellcmd.Word) bool {
	if w.Literal {
		return false
	}
	v := strings.TrimLeft(w.Value, `"`)
	for _, p := range []string{"-", "$'", "$\"", "$(", "`"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// optionsMatter reports whether a table row reads name's options to grade
// it, so that a computed option could hide what makes it high.
func optionsMatter(name string, args []string) bool {
	switch name {
	case "rm", "shred", "chmod", "chown", "chgrp", "chattr", "setfacl", "find":
		return true
	case "git":
		return slices.Contains([]string{"push", "reset", "clean", "checkout", "restore"}, gitSub(args))
	}
	return false
}

// writtenFiles returns the files name writes, as far as its arguments say:
// tee's, the destination of cp, mv, install and ln, sed -i's and perl -i's
// files, dd's of=.
func writtenFiles(name string, args []string) []string {
	var files []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			files = append(files, a)
		}
	}
	switch name {
	case "tee":
		return files
	case "cp", "mv", "install", "ln":
		if len(files) > 0 {
			return files[len(files)-1:]
		}
	case "sed", "perl":
		if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-i") || a == "--in-place" }) {
			return files
		}
	case "dd":
		for _, a := range args {
			if f, ok := strings.CutPrefix(a, "of="); ok {
				return []string{f}
			}
		}
	}
	return nil
}

// startupNames are the files shells (and the login session) run when they
// start or end: a write there runs code later, outside any approval.
var startupNames = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout", ".xprofile",
	".xsessionrc", ".xinitrc", "bash.bashrc", "bashrc", "zshrc", "zshenv", "zprofile", "zlogin", "csh.cshrc",
	"csh.login",
}

// startupFile returns the shell start-up file s names (as written, or after
// the shell expands ~ or $HOME in it), or "".
func startupFile(s string) string {
	p := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(s)
	base := path.Base(p)
	switch {
	case slices.Contains(startupNames, base) && (strings.HasPrefix(base, ".") || strings.HasPrefix(p, "/etc/")):
		return p
	case strings.HasPrefix(p, "/etc/profile"), strings.Contains(p, ".config/fish/"), strings.Contains(p, "/etc/fish/"):
		return p
	}
	return ""
}

// short is s cut to 40 characters, for a reason's evidence.
func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
