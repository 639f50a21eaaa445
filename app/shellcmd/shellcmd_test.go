package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// covered is how rules use the package: every command that runs something
// starts with prefix, and nothing writes outside cwd.
func covered(t *testing.T, line, prefix, cwd string) bool {
	t.Helper()
	p, err := Prefix(prefix)
	if err != nil {
		t.Fatalf("Prefix(%q): %v", prefix, err)
	}
	l, err := Split(line)
	if err != nil {
		return false
	}
	if _, ok := l.WritesOutside(cwd); ok || l.Evaluates != "" {
		return false
	}
	for _, c := range l.Commands {
		if c.Unpacked || (len(c.Words) == 0 && len(c.Assigns) == 0) {
			continue
		}
		if !c.HasPrefix(p) {
			return false
		}
	}
	return len(l.Commands) > 0
}

func TestPrefixCoverage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line, prefix string
		want         bool
	}{
		{"npm test", "npm test", true},
		{"npm test -- --watch", "npm test", true},
		{"npm  test", "npm test", true},
		{`npm "test"`, "npm test", true},
		{`n\pm test`, "npm test", true},
		{"npm testing", "npm test", false},
		{"npm", "npm test", false},
		{"npm test && rm -rf ~", "npm test", false},
		{"npm test || rm -rf ~", "npm test", false},
		{"npm test; rm -rf ~", "npm test", false},
		{"npm test | sh", "npm test", false},
		{"npm test\nrm -rf ~", "npm test", false},
		{"npm test & rm -rf ~", "npm test", false},
		{"npm test $(rm -rf ~)", "npm test", false},
		{"npm test \"$(rm -rf ~)\"", "npm test", false},
		{"npm test `rm -rf ~`", "npm test", false},
		{"npm test <(rm -rf ~)", "npm test", false},
		{"(npm test; rm -rf ~)", "npm test", false},
		{"{ npm test; rm -rf ~; }", "npm test", false},
		{"if npm test; then rm -rf ~; fi", "npm test", false},
		{"for x in 1; do rm -rf ~; done; npm test", "npm test", false},
		{"f() { rm -rf ~; }; npm test", "npm test", false},
		{"bash -c 'npm test && rm -rf ~'", "npm test", false},
		{"sh -c 'rm -rf ~'", "npm test", false},
		{"bash -lc 'npm test; rm -rf ~'", "npm test", false},
		{"bash -c \"$X\"", "npm test", false},
		{"bash -c 'npm test'", "npm test", true},
		{"npm test && npm test -- b", "npm test", true},
		{"PATH=/tmp/evil npm test", "npm test", false},
		{"PATH=/tmp/evil; npm test", "npm test", false},
		{"export PATH=/tmp; npm test", "npm test", false},
		{"$NPM test", "npm test", false},
		{"np? test", "npm test", false},
		{"np{m,x} test", "npm test", false},
		{"npm t{e,x}st", "npm test", false},
		{"npm test > out.txt", "npm test", true},
		{"npm test > build/out.txt 2>&1", "npm test", true},
		{"npm test > /dev/null", "npm test", true},
		{"npm test > ~/.bashrc", "npm test", false},
		{"npm test > ../x", "npm test", false},
		{"npm test > /etc/passwd", "npm test", false},
		{"npm test > /home/u/app/out", "npm test", true},
		{"npm test > /home/u/application", "npm test", false},
		{"npm test > $OUT", "npm test", false},
		{"npm test >> /tmp/log", "npm test", false},
		{"npm test &> /tmp/log", "npm test", false},
		{"npm test >& /tmp/log", "npm test", false},
		{"npm test 2>&1", "npm test", true},
		{"{ npm test; } > /etc/x", "npm test", false},
		{"npm test # && rm -rf ~", "npm test", true},
		{"npm test '&& rm -rf ~'", "npm test", true},
		{"npm test $'\\x3b rm'", "npm test", true},
		{"$'npm' test", "npm test", false},
		{"npm test ((", "npm test", false},
		{"git log --oneline -5", "git log", true},
		{"git log; git push --force", "git log", false},
		{"npm test\n\n\n\n\nrm -rf ~", "npm test", false},
		{"ls \u202e; rm -rf ~ #\u202c", "ls", false},
		{"npm test \\\r\nrm -rf ~", "npm test", false}, // Bash: two commands; the parser: one
		{"npm test\rrm -rf ~", "npm test", false},
		{"cd / && npm test > etc/profile", "cd", false},
		{"npm test > 'C:\\Windows\\x'", "npm test", false},
		{"npm test > C:/Windows/x", "npm test", false},
		// Words Bash can turn into code (issue 33 item 2): arithmetic
		// evaluates the array subscript a value holds, and with it the
		// command substitution inside; prompt expansion re-expands a value.
		{"npm test ${x:='a[$(touch /tmp/p)]'} $((x))", "npm test", false},
		{"for x in 'a[$(touch /tmp/p)]'; do npm test $((x)); done", "npm test", false},
		{"npm test ${x:='$(touch /tmp/p)'} ${x@P}", "npm test", false},
		{"npm test $[x]", "npm test", false},
		{"npm test ${HOME:x:1}", "npm test", false},
		{"npm test ${!x}", "npm test", false},
		{"npm test ${a[x]}", "npm test", false},
		{"for x in 'a[$(id)]'; do ((x)); npm test; done", "npm test", false},
		{"for x in 'a[$(id)]'; do [[ x -eq 1 ]] && npm test; done", "npm test", false},
		{"for x in 'a[$(id)]'; do for ((x;;)); do npm test; done; done", "npm test", false},
		{"npm test <<EOF\n$((x))\nEOF", "npm test", false},
		{"bash -c 'npm test $((x))'", "npm test", false},
		{"for PATH in /tmp/evil; do npm test; done", "npm test", false},
		{"npm test {PATH}>/dev/null", "npm test", false},
		{"coproc PATH { npm test; }; npm test", "npm test", false},
		{"printf -v 'a[$(id)]' x", "printf", false},
		{"eval 'npm test; rm -rf ~'", "eval", false},
		{"npm test \"$x\" ${x:-a} ${#x} \"${args[@]}\" ${x%.go} ${x@Q} ${a[0]}", "npm test", true},
		{"for f in a b; do npm test $f; done", "npm test", true},
		{"npm test <<'EOF'\n$((x))\nEOF", "npm test", true},
	}
	for _, c := range cases {
		if got := covered(t, c.line, c.prefix, "/home/u/app"); got != c.want {
			l, err := Split(c.line)
			t.Errorf("%q by prefix %q: covered %v, want %v (commands %+v, err %v)", c.line, c.prefix, got, c.want, l.Commands, err)
		}
	}
}

func TestSplitFindsNestedCommands(t *testing.T) {
	t.Parallel()
	l, err := Split("echo $(date) `whoami` <(ls) && bash -c 'cat a | grep b' ; x=$(id) ; declare y=1")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range l.Commands {
		if len(c.Words) > 0 {
			names = append(names, c.Words[0].Value)
		} else {
			names = append(names, "assign:"+strings.Join(c.Assigns, ","))
		}
	}
	for _, want := range []string{"echo", "date", "whoami", "ls", "bash", "cat", "grep", "assign:x=$(id)", "id", "declare"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %q among %q", want, names)
		}
	}
	if c := l.Commands[slices.Index(names, "bash")]; !c.Unpacked {
		t.Errorf("bash -c was not unpacked: %+v", c)
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	l, err := Split(`cmd 'a b' "c\"d" e\ f $x "$y" ~/z {}  a{b,c} $'q' "p$(w)"`)
	if err != nil {
		t.Fatal(err)
	}
	got := l.Commands[0].Words
	want := []Word{{"cmd", true}, {"a b", true}, {`c"d`, true}, {"e f", true}, {"$x", false}, {`"$y"`, false},
		{"~/z", false}, {"{}", true}, {"a{b,c}", false}, {"$'q'", false}, {`"p$(w)"`, false}}
	if !slices.Equal(got, want) {
		t.Fatalf("words\n got %+v\nwant %+v", got, want)
	}
}

func TestPrefixRefuses(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "npm test && x", "npm $X", "npm > f", "A=1 npm", "bash -c 'x'", "npm (("} {
		if p, err := Prefix(s); err == nil {
			t.Errorf("Prefix(%q) = %q, want an error", s, p)
		}
	}
}

func TestTooLong(t *testing.T) {
	t.Parallel()
	if _, err := Split(strings.Repeat("a", MaxLine+1)); err != ErrTooLong {
		t.Fatalf("err %v", err)
	}
}

func TestNestingIsBounded(t *testing.T) {
	t.Parallel()
	s := "rm -rf ~"
	for range MaxDepth + 2 {
		s = "bash -c " + shellQuote(s)
	}
	l, err := Split(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Commands); n != MaxDepth+1 || l.Commands[MaxDepth].Unpacked {
		t.Fatalf("%d commands, the innermost unpacked %v; want %d, the last opaque", n, l.Commands[n-1].Unpacked, MaxDepth+1)
	}
	if covered(t, s, "npm test", "/") {
		t.Fatal("a deeply nested rm is covered by npm test")
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FuzzSplit checks that Split never panics, that every command's text is
// in the source, and that a command appended on its own line is found.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"npm test", "a && b", "x $(y `z`)", "bash -c 'a; b'", "f() { g; }", "cat <<EOF\nx\nEOF", "a 'b", "# c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Split(s)
		if err != nil {
			return
		}
		for _, c := range l.Commands {
			if c.Text != "" && !strings.Contains(s, c.Text) && !c.Unpacked && !strings.Contains(s, "-c") {
				t.Fatalf("command %q not in %q", c.Text, s)
			}
		}
		if strings.Contains(s, "<<") || strings.HasSuffix(s, `\`) {
			return // a heredoc or a continuation takes the next line
		}
		l2, err := Split(s + "\nrm -rf zz")
		if err != nil {
			return
		}
		found := slices.ContainsFunc(l2.Commands, func(c Command) bool {
			return len(c.Words) >= 3 && c.Words[0].Value == "rm" && c.Words[2].Value == "zz"
		})
		if !found {
			t.Fatalf("%q: the appended rm is a command nobody found: %+v", s, l2.Commands)
		}
	})
}
