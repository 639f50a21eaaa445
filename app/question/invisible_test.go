package question

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"plain", "csi \u009b2J osc \u009d0;t\u009c", "esc \x1b[2J del \x7f", "rlo \u202e zwsp \u200b tag \U000E0041",
		"tab\tnewline\n é 日本 😀",
	} {
		js, err := json.MarshalIndent(map[string]string{"s": s}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := EscapeJSON(js)
		if _, i := FirstHidden(string(out)); i >= 0 {
			t.Errorf("%q: escaped JSON still holds a hidden rune at %d: %q", s, i, out)
		}
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil || back["s"] != s {
			t.Errorf("%q: escaped JSON %s decodes to %q, %v", s, out, back["s"], err)
		}
		if !strings.ContainsAny(s, "\u009b\x1b\u202e") && string(out) != string(js) {
			t.Errorf("%q: JSON without hidden runes changed: %s", s, out)
		}
	}
	if got := string(EscapeJSON([]byte(`"\u009b"`))); got != `"\u009b"` {
		t.Errorf("already escaped: %s", got)
	}
	if got := string(EscapeJSON([]byte("\"\u009b\U000E0041\""))); got != `"\u009b\udb40\udc41"` {
		t.Errorf("EscapeJSON = %s, want \\u009b and a surrogate pair", got)
	}
}
