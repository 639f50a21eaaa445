package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question/present"
)

// TestCLI_NoAllowForWhatCannotBeSeen is issue 33 item 8 against the real
// binary: `asktray hook claude-code` asks for a Bash command of 20,129
// characters, whose tail the details cannot show ("129 more characters not
// shown"). The question says it is cut, and `asktray answer ID --accept
// '"allow"'` is refused with the reason, before any terminal or password
// is asked for; a deny still reaches the hook. On f02af39 the question was
// not marked and the allow went on to the terminal and password check, so
// the person could allow characters no screen showed them.
func TestCLI_NoAllowForWhatCannotBeSeen(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir)
	long := "echo start; " + strings.Repeat("x", 20000-12) + "; rm -rf ~/important-tail-" + strings.Repeat("y", 129-26)
	cmd := hookProc(t, dir, "s0", "/home/u/app", long)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := []chan string{make(chan string, 1)}
	go func() {
		_ = cmd.Wait()
		done[0] <- out.String()
	}()
	q, ok := pendingBySession(t, dir, 1, done)["s0"]
	if !ok {
		t.Fatalf("never came to the person (the hook printed %q)", <-done[0])
	}
	if !q.Cut || !strings.Contains(q.Details, "more characters not shown") || strings.Contains(q.Details, "important-tail") {
		t.Fatalf("the question is not marked cut (cut %v), details end %q", q.Cut, q.Details[max(0, len(q.Details)-200):])
	}
	r := run(t, dir, "answer", q.ID, "--accept", `"allow"`)
	if r.code == 0 || !strings.Contains(r.stderr, present.UnseenReason) || strings.Contains(r.stderr, "terminal") {
		t.Fatalf("allow of what cannot be seen: %+v", r)
	}
	if r := run(t, dir, "answer", q.ID, "--decline"); r.code != 0 {
		t.Fatalf("decline: %+v", r)
	}
	if got := wait(t, done[0]); !strings.Contains(got, `"behavior":"deny"`) {
		t.Errorf("after the person declined, the hook printed %q", got)
	}
}
