package ellipsis

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyStandardLibrary keeps the cut a leaf that the question
// model, app/hook and app/toolinput, all standard-library only, may import.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".")
}

func TestCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"abcdef", 1, "…"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"héllo wörld", 6, "héllo…"},
		{"日本語テキスト", 4, "日本語…"},
		{"日本語", 3, "日本語"},
		{"a\xffbc", 3, "a\xff…"}, // invalid bytes count as one rune each, as utf8 reads them
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// FuzzCut: the result is never longer than n runes, is s itself when s
// fits, and otherwise is a prefix of s followed by the mark, one rune
// shorter than n.
func FuzzCut(f *testing.F) {
	f.Add("héllo wörld", 6)
	f.Add("abc", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 200
		got := Cut(s, n)
		count := utf8.RuneCountInString(got)
		switch {
		case n < 1:
			if got != "" {
				t.Fatalf("Cut(%q, %d) = %q, want empty", s, n, got)
			}
		case utf8.RuneCountInString(s) <= n:
			if got != s {
				t.Fatalf("Cut(%q, %d) = %q, want it whole", s, n, got)
			}
		default:
			if count != n || !strings.HasSuffix(got, Mark) || !strings.HasPrefix(s, strings.TrimSuffix(got, Mark)) {
				t.Fatalf("Cut(%q, %d) = %q (%d runes)", s, n, got, count)
			}
		}
	})
}
