package history

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func TestRecord_Elapsed(t *testing.T) {
	t.Parallel()
	r := Record{Question: question.Question{Created: base}}
	if got := r.Elapsed(); got != 0 {
		t.Errorf("pending Elapsed() = %v, want 0", got)
	}
	r.Result = &question.Result{DecidedAt: base.Add(1500 * time.Millisecond)}
	if got := r.Elapsed(); got != 1500*time.Millisecond {
		t.Errorf("Elapsed() = %v, want 1.5s", got)
	}
}

func TestFTSQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"  ", ""},
		{"deploy", `"deploy"*`},
		{"deploy billing", `"deploy" AND "billing"*`},
		{`say "hi" OR (x)`, `"say" AND """hi""" AND "OR" AND "(x)"*`},
		{"- * ( ) 50%", `"50%"*`},
	}
	for _, tt := range tests {
		if got := ftsQuery(searchTerms(tt.in)); got != tt.want {
			t.Errorf("ftsQuery(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestPageLimit(t *testing.T) {
	t.Parallel()
	for in, want := range map[int]int{-1: DefaultLimit, 0: DefaultLimit, 1: 1, 50: 50, 1000: 1000, 1001: MaxLimit, 1 << 30: MaxLimit} {
		if got := pageLimit(in); got != want {
			t.Errorf("pageLimit(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestCursor_RoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []cursor{{0, ""}, {-5, "a:b"}, {base.UnixNano(), question.NewID()}} {
		got, ok, err := decodeCursor(encodeCursor(c))
		if err != nil || !ok || got != c {
			t.Errorf("round trip of %+v = %+v, %v, %v", c, got, ok, err)
		}
	}
	if _, ok, err := decodeCursor(""); ok || err != nil {
		t.Errorf(`decodeCursor("") = %v, %v; want false, nil`, ok, err)
	}
	for _, bad := range []string{"!!", "bm9jb2xvbg" /* "nocolon" */, "eDpx" /* "x:q" */} {
		if _, _, err := decodeCursor(bad); err == nil {
			t.Errorf("decodeCursor(%q) did not fail", bad)
		}
	}
}

func TestSearchText_JSONValue(t *testing.T) {
	t.Parallel()
	r := &question.Result{Value: []byte(`{"b": ["caf\u00e9", 42], "a": true}`), Note: "n"}
	got := searchText(question.Question{Message: "m"}, r)
	for _, want := range []string{"café", "42", "true", "a", "b", "n", "m"} {
		if !slices.Contains(strings.Split(got, "\n"), want) {
			t.Errorf("searchText = %q, missing %q", got, want)
		}
	}
}
