package clientsetup

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

var jsonEditCases = []struct{ name, old, want string }{
	{"empty", "", "{\n  \"s\": {\n    \"asktray\": {\n      \"url\": \"u\"\n    }\n  }\n}\n"},
	{"empty object", "{}", "{\n  \"s\": {\n    \"asktray\": {\n      \"url\": \"u\"\n    }\n  }\n}"},
	{"replace keeps neighbours", "{\"s\": {\"a\": 1, \"asktray\": {\"url\": \"old\"}, \"z\": 2}}",
		"{\"s\": {\"a\": 1, \"asktray\": {\n      \"url\": \"u\"\n    }, \"z\": 2}}"},
	{"tabs and comments", "{\n\t// c1\n\t\"x\": [1, 2,], /* c2 */\n}\n",
		"{\n\t// c1\n\t\"x\": [1, 2,], /* c2 */\n\t\"s\": {\n\t\t\"asktray\": {\n\t\t\t\"url\": \"u\"\n\t\t}\n\t},\n}\n"},
	{"crlf and bom", "\ufeff{\r\n  \"x\": 1\r\n}\r\n",
		"\ufeff{\r\n  \"x\": 1,\r\n  \"s\": {\r\n    \"asktray\": {\r\n      \"url\": \"u\"\r\n    }\r\n  }\r\n}\r\n"},
	{"unchanged", "{\"s\": {\"asktray\": {\"url\": \"u\"}}}", "{\"s\": {\"asktray\": {\"url\": \"u\"}}}"},
}

// setEntry sets s.asktray = {"url": "u"} in old the way Write does.
func setEntry(old []byte) ([]byte, error) {
	d, err := parseJSONDoc(old, true)
	if err != nil {
		return nil, err
	}
	path, entry := []string{"s", ServerName}, map[string]string{"url": "u"}
	if d.same(path, entry) {
		return old, nil
	}
	if err := d.set(path, entry); err != nil {
		return nil, err
	}
	return d.bytes(), nil
}

func TestJSONEdit(t *testing.T) {
	for _, tc := range jsonEditCases {
		got, err := setEntry([]byte(tc.old))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %v\ngot  %q\nwant %q", tc.name, err, got, tc.want)
		}
	}
	for _, bad := range []string{"[]", "{", `{"s": 1}`, `{"s": {"asktray": 1}} x`} {
		if got, err := setEntry([]byte(bad)); err == nil && bad != `{"s": {"asktray": 1}} x` {
			t.Errorf("%q: no error, got %q", bad, got)
		}
	}
	if _, err := parseJSONDoc([]byte("{/* c */}"), false); err == nil {
		t.Error("comments accepted for a plain-JSON client")
	}
}

// standard returns b as a JSON value, comments and trailing commas dropped.
func standard(t *testing.T, b []byte) map[string]any {
	t.Helper()
	v, err := hujson.Parse(bytes.Clone(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))) // Standardize works in place
	if err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	v.Standardize()
	var m map[string]any
	if err := json.Unmarshal(v.Pack(), &m); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return m
}

// FuzzJSONEdit checks that setting the entry keeps every other value and
// every comment, and that a second run changes nothing.
func FuzzJSONEdit(f *testing.F) {
	for _, tc := range jsonEditCases {
		f.Add(tc.old)
	}
	f.Fuzz(func(t *testing.T, old string) {
		got, err := setEntry([]byte(old))
		if err != nil {
			return
		}
		if bytes.Contains([]byte(old), []byte("\r")) {
			return // line endings are made uniform; the rest is checked on LF input
		}
		if strings.TrimSpace(strings.TrimPrefix(old, "\ufeff")) == "" {
			old = "{}"
		}
		before, after := standard(t, []byte(old)), standard(t, got)
		if s, ok := after["s"].(map[string]any); !ok || !reflect.DeepEqual(s[ServerName], map[string]any{"url": "u"}) {
			t.Fatalf("%q -> %q: no entry", old, got)
		}
		if s, ok := before["s"].(map[string]any); ok {
			delete(s, ServerName)
		}
		delete(after["s"].(map[string]any), ServerName)
		if _, had := before["s"]; !had {
			delete(after, "s")
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("%q -> %q: other values changed", old, got)
		}
		v, _ := hujson.Parse([]byte(strings.TrimPrefix(old, "\ufeff")))
		for c := range comments(v) {
			if !strings.Contains(string(got), c) {
				t.Fatalf("%q -> %q: comment %q lost", old, got, c)
			}
		}
		again, err := setEntry(got)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("second run changed %q to %q (%v)", got, again, err)
		}
	})
}

// comments yields the comments of v.
func comments(v hujson.Value) func(func(string) bool) {
	return func(yield func(string) bool) {
		for x := range v.All() {
			for _, e := range []hujson.Extra{x.BeforeExtra, x.AfterExtra} {
				for _, c := range extraComments(e) {
					if !yield(c) {
						return
					}
				}
			}
			switch c := x.Value.(type) {
			case *hujson.Object:
				for _, s := range extraComments(c.AfterExtra) {
					if !yield(s) {
						return
					}
				}
			case *hujson.Array:
				for _, s := range extraComments(c.AfterExtra) {
					if !yield(s) {
						return
					}
				}
			}
		}
	}
}

func extraComments(e hujson.Extra) []string {
	var out []string
	s := string(e)
	for {
		i := strings.Index(s, "/")
		if i < 0 || i+1 >= len(s) {
			return out
		}
		end := len(s)
		if s[i+1] == '*' {
			end = strings.Index(s[i:], "*/") + i + 2
		} else if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			end = i + j
		}
		out = append(out, strings.TrimRight(s[i:end], "\r"))
		s = s[end:]
	}
}
