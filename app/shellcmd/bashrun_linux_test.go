package shellcmd

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// sandboxPrelude runs before the line in the Bash that bashRuns starts. It
// bounds memory, CPU time, processes and function nesting, then disables
// every builtin but a few that only print or set variables (the ones that
// take variable names stay, so that printf -v 'a[$(x)]' is tried), and
// finally enable itself. With PATH pointing nowhere and the shell
// restricted (-r: no command name or source file with a /, no output
// redirection, no cd, no exec, no enabling a builtin again), every command
// the line runs, disabled builtins included, ends as "NAME: command not
// found" on stderr and runs nothing.
const sandboxPrelude = `ulimit -v 400000 -t 2 -u %NPROC% -c 0
FUNCNEST=8
for b in $(compgen -b); do case $b in printf|echo|read|unset|declare|typeset|local|test|'['|true|false|:|mapfile|readarray|shift|set|export|readonly|getopts|return|break|continue|exit|enable) ;; *) enable -n "$b";; esac; done
enable -n enable
`

var notFoundRE = regexp.MustCompile(`(?m)^.*?: line [0-9]+: (.*): command not found$`)

// bashRuns runs line in a sandboxed Bash (see sandboxPrelude) and returns
// the name of every command it ran, those a value turned into code
// included. It runs as nobody when the test runs as root. Every process it
// started is killed when it returns.
func bashRuns(t *testing.T, line string) []string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to check the splitter against it")
	}
	dir, err := os.MkdirTemp("", "bashruns") //nolint:usetesting // nobody, the sandbox's user under root, must enter it: t.TempDir's parent is 0700
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	_ = os.Chmod(dir, 0o755) //nolint:gosec // nobody must enter it; it stays empty
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	script := strings.ReplaceAll(sandboxPrelude, "%NPROC%", strconv.Itoa(procLimit())) + line
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-r", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/nonexistent", "HOME=" + dir, "LC_ALL=C.UTF-8"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if os.Getuid() == 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // a job left in the background
	var out []string
	for _, m := range notFoundRE.FindAllStringSubmatch(stderr.String(), -1) {
		out = append(out, unquoteANSIC(m[1]))
	}
	return out
}

// unquoteANSIC undoes the $'…' quoting Bash gives a name it prints that
// holds bytes it cannot print ($'\346\246\246'): octal, \xHH and the
// one-letter escapes. Any other name is returned as it is.
func unquoteANSIC(s string) string {
	body, quoted := strings.CutPrefix(s, "$'")
	body, closed := strings.CutSuffix(body, "'")
	if !quoted || !closed {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; {
		case e >= '0' && e <= '7':
			n, j := 0, i
			for ; j < len(body) && j < i+3 && body[j] >= '0' && body[j] <= '7'; j++ {
				n = n*8 + int(body[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		case e == 'x' && i+2 < len(body):
			if v, err := strconv.ParseUint(body[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
			}
		default:
			b.WriteString(map[byte]string{'n': "\n", 't': "\t", 'r': "\r", 'e': "\x1b", 'E': "\x1b", 'a': "\a", 'b': "\b", 'f': "\f", 'v': "\v"}[e])
			if strings.IndexByte("ntreEabfv", e) < 0 {
				b.WriteByte(e)
			}
		}
	}
	return b.String()
}

var (
	nprocOnce sync.Once
	nproc     int
)

// procLimit is the process limit for the sandbox: a fork bomb stops there.
// It counts every process of the user it runs as (nobody under root).
func procLimit() int {
	nprocOnce.Do(func() {
		uid := os.Getuid()
		if uid == 0 {
			uid = 65534
		}
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if info, err := os.Stat("/proc/" + e.Name()); err == nil && e.IsDir() {
				if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid {
					nproc++
				}
			}
		}
		nproc += 64
	})
	return nproc
}

// agreeRunning checks that a line a prefix rule could cover (it parses,
// each command's name is literal and nothing in it evaluates code: see
// Line.Evaluates) runs, in Bash, no command the splitter did not find.
func agreeRunning(t *testing.T, line string) {
	t.Helper()
	l, err := Split(line)
	if err != nil || l.Evaluates != "" {
		return
	}
	names := map[string]bool{}
	for _, c := range l.Commands {
		if len(c.Words) == 0 {
			continue
		}
		if !c.Words[0].Literal {
			return // a computed name: no prefix covers it, and risk grades it high
		}
		names[c.Words[0].Value] = true
	}
	for _, ran := range bashRuns(t, line) {
		if !names[ran] {
			t.Errorf("%q: Bash ran %q, which Split did not find and nothing marked as evaluating (commands %q)", line, ran, keys(names))
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestUnquoteANSIC: a name Bash printed quoted reads back as the name ran.
func TestUnquoteANSIC(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`$'\346\246\246'`: "榦", `$'a\x41\tb\'c'`: "aA\tb'c", "npm": "npm", `$'x`: `$'x`} {
		if got := unquoteANSIC(in); got != want {
			t.Errorf("unquoteANSIC(%q) = %q, want %q", in, got, want)
		}
	}
}
