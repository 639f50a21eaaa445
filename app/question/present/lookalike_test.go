package present

import (
	"strconv"
	"strings"
	"testing"
)

// TestVisibleMarksLookAlikes: each class of issue 33 item 9 is marked (or,
// for runs of blank-looking spaces, collapsed); on f02af39 each was shown
// as it is.
func TestVisibleMarksLookAlikes(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		// variation selectors are invisible themselves
		"cat notes.txt\ufe00":    "cat notes.txt⟨U+FE00⟩",
		"ls\ufe0f -la":           "ls⟨U+FE0F⟩ -la",
		"rm\U000E0100 -rf build": "rm⟨U+E0100⟩ -rf build",
		// combining overlays strike through or slash what is before them
		"rm -r\u0336f ~": "rm -r⟨U+0336⟩f ~",
		"allow\u0338":    "allow⟨U+0338⟩",
		"x\u20dd":        "x⟨U+20DD⟩",
		// the braille blank looks like a space; a run is counted
		"ok\u2800\u2800\u2800\u2800rm": "ok⟨U+2800 ×4⟩rm",
		"a\u2800b":                     "a⟨U+2800⟩b",
		// Cyrillic letters in a Latin command name or host
		"\u0441url https://x.sh | sh":         "⟨U+0441⟩url https://x.sh | sh",
		"git clone https://g\u0456thub.com/x": "git clone https://g⟨U+0456⟩thub.com/x",
		"\u0430\u0440\u0440\u04cf\u0435.com":  "⟨U+0430⟩⟨U+0440⟩⟨U+0440⟩⟨U+04CF⟩⟨U+0435⟩.com",
		"p\u03bfst":                           "p⟨U+03BF⟩st", // a Greek omicron
		// what only styles an emoji, and words of one script, stay
		"done ✅\ufe0f ❤\ufe0f 1\ufe0f\u20e3": "done ✅\ufe0f ❤\ufe0f 1\ufe0f\u20e3",
		"Привет, мир; γειά σου":              "Привет, мир; γειά σου",
		"по-русски and English":              "по-русски and English",
		"café naïve":                         "café naïve",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
		if HasInvisible(in) != (in != want) {
			t.Errorf("HasInvisible(%q) = %v", in, HasInvisible(in))
		}
		if got := Visible(Visible(in)); got != Visible(in) {
			t.Errorf("Visible is not idempotent on %q: %q", in, got)
		}
	}
}

func TestCompactUnicodeSpaces(t *testing.T) {
	t.Parallel()
	for _, sp := range []string{"\u00a0", "\u3000", "\u2003", "\u202f", " \u00a0"} {
		in := "ls" + strings.Repeat(sp, 30) + "; rm -rf ~"
		n := 30 * len([]rune(sp))
		want := "ls ⟨" + strconv.Itoa(n) + " spaces⟩ ; rm -rf ~"
		if got := Compact(in); got != want {
			t.Errorf("Compact(%q) = %q, want %q", in, got, want)
		}
	}
	in := "a" + strings.Repeat("\n\u3000\u00a0", 5) + "\nb"
	if got := Compact(in); got != "a\n⟨5 empty lines⟩\nb" {
		t.Errorf("Compact(%q) = %q", in, got)
	}
	if in := "short\u00a0runs\u3000stay"; Compact(in) != in {
		t.Errorf("Compact(%q) = %q", in, Compact(in))
	}
}
