// Package ellipsis cuts text to a number of characters (runes) and marks
// the cut with "…". It is the one such cut for the question model, the
// rendering of a tool's input, the hooks and everything above them, and it
// imports only the standard library. Its functions only compute; any
// goroutine may call them.
package ellipsis

import "unicode/utf8"

// Mark is what stands for the cut-off rest of a text.
const Mark = "…"

// Cut returns s when it is at most n runes long, else its first n-1 runes
// followed by Mark, so the result is never longer than n runes (a string
// one rune too long loses that rune to the mark). It returns "" when n is
// less than 1.
func Cut(s string, n int) string {
	if n < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, kept := 0, 0
	for kept < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		kept++
	}
	return s[:i] + Mark
}
