package clientsetup

import (
	"reflect"
	"slices"
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
	"[mcp_servers.asktray]\nurl = \"old\"\nstartup_timeout_sec = 30\ndisabled_tools = [\n  \"notify\",\n]\ntool_timeout_sec = 90\n\n[mcp_servers.asktray.tools.notify]\napproval_mode = \"approve\"\n\n[mcp_servers.asktray.http_headers]\nAuthorization = \"Bearer old\"\n\n# next\n[x]\n",
	"[mcp_servers.asktray]\ncommand = \"/old\"\nargs = [\n  \"stdio\",\n]\nenabled = false\n",
}

// FuzzTOMLMerge checks mergeTOMLTable on any input: the result is TOML whose
// mcp_servers.asktray holds the table's owned keys, its default keys unless
// the person had them, and the person's other keys and sub-tables as before;
// everything else decodes as before, and a second merge changes nothing.
func FuzzTOMLMerge(f *testing.F) {
	for _, s := range tomlSeeds {
		f.Add(s)
	}
	var want map[string]any
	if err := toml.Unmarshal([]byte(fuzzTable), &want); err != nil {
		f.Fatal(err)
	}
	wantEntry := want["mcp_servers"].(map[string]any)["asktray"].(map[string]any)
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
		mine := map[string]any{}
		if s, ok := before["mcp_servers"].(map[string]any); ok {
			if e, ok := s["asktray"].(map[string]any); ok {
				mine = e
			}
		}
		expect := map[string]any{}
		for k, v := range mine {
			if !slices.Contains(slices.Concat(codexOwned, codexStdioOnly), k) {
				expect[k] = v
			}
		}
		for k, v := range wantEntry {
			if _, had := mine[k]; !had || !slices.Contains(codexDefaults, k) {
				expect[k] = v
			}
		}
		got := after["mcp_servers"].(map[string]any)["asktray"]
		if !reflect.DeepEqual(got, expect) {
			t.Fatalf("%q -> %q: asktray = %v, want %v", old, merged, got, expect)
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
