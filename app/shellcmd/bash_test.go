package shellcmd

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// bashCommands asks Bash itself which simple commands it would run for
// line, running none of them: with extdebug a DEBUG trap that fails skips
// each command, and the trap prints it first ($BASH_COMMAND). PATH points
// nowhere and the work dir is a fresh temp dir, for whatever a skipped
// command's compound redirections still open.
func bashCommands(t *testing.T, line string) []string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Bash is the oracle on Linux, where CI runs this")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to check the splitter against it")
	}
	script := "shopt -s extdebug\nTIMEFORMAT=\ntrap 'printf \"%s\\0\" \"$BASH_COMMAND\" >&2; false' DEBUG\n" + line
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-s")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/nonexistent", "HOME=" + cmd.Dir}
	cmd.Stdin = strings.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // a syntax error ends it; what it listed before stands
	var out []string
	for c := range strings.SplitSeq(stderr.String(), "\x00") {
		if c = strings.TrimSpace(c); c != "" && !strings.Contains(c, "syntax error") {
			out = append(out, c)
		}
	}
	return out
}

// firstWord is a command's first word as source text, backslashes left
// out (Bash and the parser keep different ones); of an assignment, the
// name (A in A=1 and A+=1).
func firstWord(s string) string {
	f := strings.Fields(strings.ReplaceAll(s, `\`, ""))
	if len(f) == 0 {
		return ""
	}
	if name, _, ok := strings.Cut(f[0], "="); ok {
		return strings.TrimSuffix(name, "+") + "="
	}
	return f[0]
}

// agree checks that every command Bash would run for line is one Split
// found: by its first word when byName, else (for generated lines, whose
// words Bash and the parser print with different escapes) by count.
func agree(t *testing.T, line string, byName bool) {
	t.Helper()
	l, err := Split(line)
	if err != nil {
		return // refused: no rule covers it
	}
	var ours []string
	for _, c := range l.Commands {
		ours = append(ours, firstWord(c.Text))
		if len(c.Words) > 0 {
			ours = append(ours, firstWord(c.Words[0].Value))
		}
		if len(c.Assigns) > 0 {
			ours = append(ours, firstWord(strings.TrimSuffix(c.Assigns[0], "+")+"="))
		}
	}
	var theirs []string
	for _, c := range bashCommands(t, line) {
		w := firstWord(c)
		if slices.Contains([]string{"case", "[[", "((", "for", "select", "if", "while", "until"}, w) || strings.HasPrefix(w, "((") {
			continue // a compound command's head; its parts are listed on their own
		}
		theirs = append(theirs, c)
		if byName && !slices.Contains(ours, w) {
			t.Errorf("%q: Bash runs %q, which Split did not find (it found %q)", line, c, ours)
		}
	}
	if len(theirs) > len(l.Commands) {
		t.Errorf("%q: Bash runs %d commands %q, Split found %d", line, len(theirs), theirs, len(l.Commands))
	}
}

// TestAgreesWithBash: for lines an attacker would try, every simple command
// Bash runs is one Split found, so no rule covers a command nobody checked.
func TestAgreesWithBash(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"npm test && rm -rf zz", "npm test || rm -rf zz", "npm test; rm -rf zz", "npm test | rm -rf zz",
		"npm test\nrm -rf zz", "npm test & rm -rf zz", "npm test\n\n\n\nrm -rf zz", "npm test # x\nrm -rf zz",
		"npm test \\\nrm -rf zz", "npm test \\\r\nrm -rf zz", "npm test\rrm -rf zz", "npm test\x00; rm -rf zz",
		"ls \u202e; rm -rf zz #\u202c", "x=1 npm test; rm -rf zz", "{ npm test; rm -rf zz; }", "(npm test; rm -rf zz)",
		"if npm test; then rm -rf zz; fi", "for i in 1; do npm test; done; rm -rf zz", "case a in a) rm -rf zz;; esac",
		"npm test <<EOF\nhi\nEOF\nrm -rf zz", "npm test <<'EOF'\n$(x)\nEOF\nrm -rf zz", "echo 'a\nb'; rm -rf zz",
		"echo \"a;b\" ; rm -rf zz", "a=$(npm test); rm -rf zz", "export X=1; rm -rf zz", "! npm test; rm -rf zz",
		"time npm test; rm -rf zz", "npm test;;rm -rf zz", "npm test |& rm -rf zz", "coproc rm -rf zz",
	} {
		agree(t, line, true)
	}
}

// FuzzAgreesWithBash runs the same check on generated lines, and runs each
// line in a sandboxed Bash (agreeRunning): a line a prefix rule could cover
// must run no command the splitter did not find, so a value that Bash
// turns into code ($((x)) evaluating x='a[$(id)]', ${x@P}) must be marked.
func FuzzAgreesWithBash(f *testing.F) {
	for _, s := range []string{"a && b", "a\nb", "a;b|c", "x=1 y", "{ a; }", "a 'b\nc' d", "a \\\nb",
		// issue 33 item 2: values Bash evaluates
		"npm test ${x:='a[$(touch /tmp/p)]'} $((x))", "for x in 'a[$(touch /tmp/p)]'; do npm test $((x)); done",
		"npm test ${x:='$(touch /tmp/p)'} ${x@P}", "x='a[$(touch p)]'; npm test $[x]", "x='a[$(touch p)]'; npm ${HOME:x:1}",
		"x='a[$(touch p)]'; npm ${!x}", "for x in 'a[$(id)]'; do [[ x -eq 1 ]]; done", "printf -v 'a[$(id)]' x",
		"for x in 'a[$(id)]'; do ((x)); done", "x='a[$(id)]'; echo ${a[x]}", "declare 'a[$(id)]=1'", "read 'a[$(id)]' </dev/null",
		"npm test \"$x\" ${x:-a} ${#x} ${x%.go} ${x@Q} $(id)", "mapfile -C id -c 1 <<< $'a\\nb'",
		"x='a[$(id)]'; typeset -i y; y=x", "declare -n y='a[$(id)]'; echo $y", "x='a[$(id)]'; echo ${a[@]:x}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 || strings.HasSuffix(s, `\`) {
			return // a backslash at the end of the input Bash drops only when reading a script
		}
		if !strings.ContainsAny(s, "`$<>(") {
			// Substitutions and redirections Bash does not run while it
			// skips (the table and agreeRunning cover them).
			agree(t, s, false)
		}
		agreeRunning(t, s)
	})
}
