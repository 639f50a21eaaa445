package cli

import (
	"testing"
)

func TestDecodeKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want key
		n    int
	}{
		{"\r", key{name: keyEnter}, 1},
		{"\x03", key{name: keyInterrupt}, 1},
		{"\x7f", key{name: keyBackspace}, 1},
		{"\x1b[A", key{name: keyUp}, 3},
		{"\x1bOB", key{name: keyDown}, 3},
		{"\x1b[1;5C", key{name: keyOther}, 6},
		{"\x1b", key{name: keyEsc}, 1},
		{"é!", key{r: 'é'}, 2},
		{"\x01", key{name: keyOther}, 1},
	}
	for _, tc := range cases {
		if k, n := decodeKey([]byte(tc.in)); k != tc.want || n != tc.n {
			t.Errorf("decodeKey(%q) = %+v, %d; want %+v, %d", tc.in, k, n, tc.want, tc.n)
		}
	}
}

func TestSafe(t *testing.T) {
	t.Parallel()
	in := "ok\tline\nnext \x1b[2J\x1b]0;title\x07 back\rspace\b \u202eevil\u202c \u0085"
	got := safe(in)
	if want := "ok\tline\nnext ⟨U+001B⟩[2J⟨U+001B⟩]0;title⟨U+0007⟩ back⟨U+000D⟩space⟨U+0008⟩ ⟨U+202E⟩evil⟨U+202C⟩ ⟨U+0085⟩"; got != want {
		t.Errorf("safe(%q) = %q, want %q", in, got, want)
	}
}
