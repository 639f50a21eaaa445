package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/asktray/asktray/app/question/present"
)

// errNoTerminal means the command has no controlling terminal to ask the
// person on; an agent's shell usually has none.
var errNoTerminal = errors.New("no controlling terminal")

// armDelayEnv overrides the arming delay, in milliseconds, for tests only.
const armDelayEnv = "ASKTRAY_TEST_ONLY_ARM_DELAY_MS"

// defaultArmDelay is how long the terminal must stay quiet after a
// password prompt before it takes what is typed: keys typed ahead, or
// pasted with the command, never confirm.
const defaultArmDelay = time.Second

// key is one key press read from the terminal.
type key struct {
	r    rune // a printable character, or 0
	name string
}

// The named keys.
const (
	keyEnter     = "enter"
	keyUp        = "up"
	keyDown      = "down"
	keyBackspace = "backspace"
	keyEsc       = "esc"
	keyInterrupt = "interrupt" // Ctrl-C or Ctrl-D
	keyOther     = "other"
)

// terminal is the person's controlling terminal (/dev/tty, never stdin), in
// raw mode while open. One goroutine reads it; its methods are for the
// command's goroutine only and block until the person types.
type terminal struct {
	ctx   context.Context // ends every wait for a key
	f     *os.File
	out   io.Writer
	old   *term.State
	chunk chan []byte
	buf   []byte
	delay time.Duration
}

// isTerminal reports whether w is a terminal, where the person reads it.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// openTerminal opens the controlling terminal in raw mode; waiting for a key
// ends when ctx does (SIGINT and SIGTERM end it, as raw mode turns Ctrl-C
// into a key). The error wraps errNoTerminal when there is none.
func openTerminal(ctx context.Context) (*terminal, error) {
	f, err := openTTY()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoTerminal, err)
	}
	old, err := term.MakeRaw(int(f.Fd()))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %w", errNoTerminal, err)
	}
	t := &terminal{ctx: ctx, f: f, out: crlf{f}, old: old, chunk: make(chan []byte, 16), delay: armDelay()}
	go t.read()
	return t, nil
}

func armDelay() time.Duration {
	if ms, err := strconv.Atoi(os.Getenv(armDelayEnv)); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return defaultArmDelay
}

// read passes what the terminal sends to chunk until it closes.
func (t *terminal) read() {
	defer close(t.chunk)
	for {
		b := make([]byte, 256)
		n, err := t.f.Read(b)
		if n > 0 {
			t.chunk <- b[:n]
		}
		if err != nil {
			return
		}
	}
}

// Close restores the terminal's mode and closes it.
func (t *terminal) Close() error {
	_ = term.Restore(int(t.f.Fd()), t.old)
	return t.f.Close()
}

// printf writes to the terminal. The format is the CLI's own; every
// argument but a number passes through safe, so that text from an agent
// cannot move the cursor, clear the screen or recolour what the person reads.
func (t *terminal) printf(format string, args ...any) {
	for i, a := range args {
		switch a.(type) {
		case int, rune, time.Duration:
		default:
			args[i] = safe(fmt.Sprint(a))
		}
	}
	fmt.Fprintf(t.out, format, args...)
}

// safe shows the characters of s that could hide, reorder or recolour
// text (escape sequences, carriage return, backspace, bidirectional and
// zero-width characters) as visible markers, ⟨U+001B⟩, as every front end
// does (present.Visible).
func safe(s string) string { return present.Visible(s) }

// crlf turns "\n" into "\r\n", which a terminal in raw mode needs.
type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	if _, err := io.WriteString(c.w, strings.ReplaceAll(string(p), "\n", "\r\n")); err != nil {
		return 0, err
	}
	return len(p), nil
}

// key returns the next key press.
func (t *terminal) key() (key, error) {
	for len(t.buf) == 0 {
		select {
		case b, ok := <-t.chunk:
			if !ok {
				return key{}, io.EOF
			}
			t.buf = b
		case <-t.ctx.Done():
			return key{}, t.ctx.Err()
		}
	}
	k, n := decodeKey(t.buf)
	t.buf = t.buf[n:]
	return k, nil
}

// decodeKey reads one key from the start of b, which is not empty, and
// returns it and the bytes it took.
func decodeKey(b []byte) (key, int) {
	switch c := b[0]; {
	case c == '\r' || c == '\n':
		return key{name: keyEnter}, 1
	case c == 3 || c == 4:
		return key{name: keyInterrupt}, 1
	case c == 127 || c == 8:
		return key{name: keyBackspace}, 1
	case c == 27:
		if len(b) >= 3 && (b[1] == '[' || b[1] == 'O') {
			n := 2
			for n < len(b) && (b[n] < 0x40 || b[n] > 0x7e) { // parameter bytes up to the final byte
				n++
			}
			if n == len(b) {
				return key{name: keyOther}, n
			}
			switch b[n] {
			case 'A':
				return key{name: keyUp}, n + 1
			case 'B':
				return key{name: keyDown}, n + 1
			}
			return key{name: keyOther}, n + 1
		}
		return key{name: keyEsc}, 1
	case c < 32:
		return key{name: keyOther}, 1
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError || !unicode.IsPrint(r) {
		return key{name: keyOther}, n
	}
	return key{r: r}, n
}

// arm waits until the terminal has been quiet for the arming delay,
// dropping every key typed meanwhile and everything typed before.
func (t *terminal) arm() {
	t.buf = nil
	for drained := false; !drained; {
		select {
		case _, ok := <-t.chunk:
			drained = !ok // a closed terminal has nothing more to drop
		default:
			drained = true
		}
	}
	timer := time.NewTimer(t.delay)
	defer timer.Stop()
	for {
		select {
		case _, ok := <-t.chunk:
			if !ok {
				return
			}
			timer.Reset(t.delay)
		case <-timer.C:
			return
		case <-t.ctx.Done():
			return // the next key() says why
		}
	}
}

// readLine reads a line with simple editing. ok is false when the person
// pressed Esc or Ctrl-C.
func (t *terminal) readLine(prompt string) (line string, ok bool, err error) {
	t.printf("%s", prompt)
	return t.readKeys(true)
}

// readPassword asks for the person's login password after the arming
// delay and reads it without echo (the terminal is in raw mode). ok is
// false when the person pressed Esc or Ctrl-C. Keys typed before the
// prompt is armed are dropped, so a line typed ahead never answers it.
func (t *terminal) readPassword(prompt string) (password string, ok bool, err error) {
	t.printf("%s", prompt)
	t.arm()
	t.printf("ready: ")
	return t.readKeys(false)
}

// readKeys reads keys up to Enter with Backspace editing, echoing what is
// typed when echo is set. ok is false when the person pressed Esc or
// Ctrl-C. It blocks until one of those keys or a read error.
func (t *terminal) readKeys(echo bool) (line string, ok bool, err error) {
	var rs []rune
	for {
		k, err := t.key()
		if err != nil {
			return "", false, err
		}
		switch {
		case k.name == keyEnter:
			t.printf("\n")
			return string(rs), true, nil
		case k.name == keyEsc || k.name == keyInterrupt:
			t.printf("\n")
			return "", false, nil
		case k.name == keyBackspace && len(rs) > 0:
			rs = rs[:len(rs)-1]
			if echo {
				t.printf("\b \b")
			}
		case k.r != 0:
			rs = append(rs, k.r)
			if echo {
				t.printf("%c", k.r)
			}
		}
	}
}

// menu shows items and lets the person pick one with the arrow keys and
// Enter, or its number. It returns the index, or -1 for Esc, Ctrl-C or q.
func (t *terminal) menu(items []string, sel int) (int, error) {
	draw := func() {
		for i, it := range items {
			mark := "  "
			if i == sel {
				mark = "> "
			}
			t.printf("\r\x1b[K%s%d. %s\n", mark, i+1, it)
		}
		t.printf("\r\x1b[K↑/↓ or a number, Enter to choose, q to quit")
	}
	draw()
	for {
		k, err := t.key()
		if err != nil {
			return -1, err
		}
		switch {
		case k.name == keyEnter:
			t.printf("\n")
			return sel, nil
		case k.name == keyEsc || k.name == keyInterrupt || k.r == 'q':
			t.printf("\n")
			return -1, nil
		case k.name == keyUp && sel > 0:
			sel--
		case k.name == keyDown && sel < len(items)-1:
			sel++
		case k.r >= '1' && k.r <= '9' && int(k.r-'1') < len(items):
			sel = int(k.r - '1')
			t.printf("\n")
			return sel, nil
		default:
			continue
		}
		t.printf("\r\x1b[%dA", len(items)) // back to the first item
		draw()
	}
}
