package clientsetup

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

const fuzzTable = "[mcp_servers.asktray]\nurl = \"http://127.0.0.1:7931/mcp\"\ntool_timeout_sec = 600\n"

var tomlSeeds = []string{
	"",
	`model = "x"`,
	"model = \"gpt-5\"   # a comment\n\n[mcp_servers.other]\ncommand = \"other\"\nargs = [\n  \"--flag\",\n  \"[mcp_servers.asktray]\",\n]\n" +
		"description = \"\"\"\n[mcp_servers.asktray]\nnot a header\n\"\"\"\n",
	"[ mcp_servers . \"asktray\" ]\ncommand = \"/old/asktray\"\nargs = [\"stdio\"]\n\n[mcp_servers.asktray.env]\nX = \"1\"\n\n# profiles follow\n[profiles.fast]\nmodel = \"m\"\n",
	"a = 1\r\n[mcp_servers.asktray]\r\nurl = \"old\"\r\n[b]\r\n",
	"mcp_servers.asktray.command = \"x\"\n",
	"[[mcp_servers.asktray]]\ncommand = \"x\"\n",
}

// FuzzTOMLMerge checks mergeTOMLTable on any input: the result is TOML whose
// mcp_servers.asktray is the table, everything else decodes as before, and a
// second merge changes nothing.
func FuzzTOMLMerge(f *testing.F) {
	for _, s := range tomlSeeds {
		f.Add(s)
	}
	var want map[string]any
	if err := toml.Unmarshal([]byte(fuzzTable), &want); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, old string) {
		merged, err := mergeTOMLTable([]byte(old), fuzzTable)
		if err != nil {
			return
		}
		var before, after map[string]any
		if err := toml.Unmarshal([]byte(strings.TrimPrefix(old, "\ufeff")), &before); err != nil {
			return // not TOML whatever the parser let through line by line (a duplicate key, say)
		}
		if err := toml.Unmarshal([]byte(strings.TrimPrefix(string(merged), "\ufeff")), &after); err != nil {
			t.Fatalf("%q -> %q: %v", old, merged, err)
		}
		got := after["mcp_servers"].(map[string]any)["asktray"]
		if !reflect.DeepEqual(got, want["mcp_servers"].(map[string]any)["asktray"]) {
			t.Fatalf("%q -> %q: asktray = %v", old, merged, got)
		}
		for _, m := range []map[string]any{before, after} {
			if s, ok := m["mcp_servers"].(map[string]any); ok {
				delete(s, "asktray")
				if len(s) == 0 {
					delete(m, "mcp_servers")
				}
			}
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("%q -> %q: other values changed:\n%v\n%v", old, merged, before, after)
		}
		again, err := mergeTOMLTable(merged, fuzzTable)
		if err != nil || string(again) != string(merged) {
			t.Fatalf("second merge of %q: %q, %v", merged, again, err)
		}
	})
}
