package clientsetup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// writeClient writes client's HTTP setup into home, where path (relative to
// home) holds old, and returns the output and the file after.
func writeClient(t *testing.T, client, home, path, old string) (string, []byte) {
	t.Helper()
	full := filepath.Join(home, path)
	if old != "" {
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: testExe}
	tg, err := Build(client, sys, testDataDir, Server{URL: testURL, Token: testToken, Running: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Path != full {
		t.Fatalf("%s writes %s, not %s", client, tg.Path, full)
	}
	out := run(t, func(b *bytes.Buffer) error { return tg.Write(b) })
	b, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if again := run(t, func(b *bytes.Buffer) error { return tg.Write(b) }); !strings.Contains(again, "nothing to change") {
		t.Errorf("%s: a rerun changed the file:\n%s", client, again)
	}
	return out, b
}

// TestWrite_CodexKeepsThePersonsKeys is finding 11 of issue 25 for Codex: a
// rewrite of the asktray table keeps startup_timeout_sec, disabled_tools, the
// person's tool_timeout_sec and a [mcp_servers.asktray.tools.notify] table,
// byte for byte, and changes the URL and the token in their places.
func TestWrite_CodexKeepsThePersonsKeys(t *testing.T) {
	old := "model = \"m\"\n\n[mcp_servers.asktray]\nurl = \"http://127.0.0.1:1/mcp\"\n" +
		"http_headers = { \"Authorization\" = \"Bearer old\" }\nstartup_timeout_sec = 30\n" +
		"disabled_tools = [\"notify\"]  # quiet\ntool_timeout_sec = 900\n\n" +
		"[mcp_servers.asktray.tools.notify]\napproval_mode = \"approve\"\n\n[profiles.x]\nmodel = \"y\"\n"
	_, b := writeClient(t, "codex", t.TempDir(), ".codex/config.toml", old)
	want := strings.NewReplacer("http://127.0.0.1:1/mcp", testURL, "Bearer old", "Bearer "+testToken).Replace(old)
	if string(b) != want {
		t.Errorf("config.toml:\n%s\nwant:\n%s", b, want)
	}
	// The token from the environment (docs/clients.md): no http_headers.
	envOld := "[mcp_servers.asktray]\nurl = \"http://127.0.0.1:1/mcp\"\nbearer_token_env_var = \"ASKTRAY_TOKEN\"\n"
	if _, b := writeClient(t, "codex", t.TempDir(), ".codex/config.toml", envOld); strings.Contains(string(b), testToken) ||
		!strings.Contains(string(b), "bearer_token_env_var") || !strings.Contains(string(b), testURL) {
		t.Errorf("with bearer_token_env_var:\n%s", b)
	}
	// From HTTP to stdio: the URL and headers go, the person's keys stay.
	home := t.TempDir()
	full := filepath.Join(home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: testExe}
	tg, err := Build("codex", sys, testDataDir, Server{}, false)
	if err != nil {
		t.Fatal(err)
	}
	run(t, func(b *bytes.Buffer) error { return tg.Write(b) })
	b, _ = os.ReadFile(full)
	var doc struct {
		MCPServers map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	e := doc.MCPServers["asktray"]
	if e["url"] != nil || e["http_headers"] != nil || e["command"] != testExe || e["startup_timeout_sec"] != int64(30) ||
		e["tool_timeout_sec"] != int64(900) || e["tools"] == nil {
		t.Errorf("stdio entry %v:\n%s", e, b)
	}
}

// TestWrite_GeminiURLTypeKeepsTrust: Gemini CLI gets "url" with "type":
// "http" in place of the deprecated "httpUrl"; its "trust", "excludeTools"
// and the person's "timeout" stay; the output says Gemini keeps MCP servers
// off in an untrusted folder.
func TestWrite_GeminiURLTypeKeepsTrust(t *testing.T) {
	old := `{
  // mine
  "mcpServers": {
    "asktray": {
      "httpUrl": "http://127.0.0.1:1/mcp",
      "headers": {"Authorization": "Bearer old"},
      "timeout": 5000,
      "trust": true,
      "excludeTools": ["notify"]
    }
  }
}
`
	out, b := writeClient(t, "gemini-cli", t.TempDir(), ".gemini/settings.json", old)
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(standardBytes(t, b), &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.MCPServers["asktray"]
	if e["httpUrl"] != nil || e["url"] != testURL || e["type"] != "http" || e["trust"] != true || e["timeout"] != 5000.0 ||
		len(e["excludeTools"].([]any)) != 1 || e["headers"].(map[string]any)["Authorization"] != "Bearer "+testToken {
		t.Errorf("entry %v:\n%s", e, b)
	}
	if !strings.Contains(string(b), "// mine") {
		t.Errorf("the comment went:\n%s", b)
	}
	if !strings.Contains(out, "trusted") {
		t.Errorf("the output does not say Gemini keeps servers off in an untrusted folder:\n%s", out)
	}
	if _, fresh := writeClient(t, "gemini-cli", t.TempDir(), ".gemini/settings.json", ""); strings.Contains(string(fresh), "httpUrl") ||
		!strings.Contains(string(fresh), `"type": "http"`) {
		t.Errorf("a new entry:\n%s", fresh)
	}
}

// TestWrite_GeminiNoTrailingCommas: Gemini CLI rejects trailing commas, so
// asktray adds none even where the file has them, and says where they are.
func TestWrite_GeminiNoTrailingCommas(t *testing.T) {
	old := "{\n  \"theme\": \"dark\",\n  \"tools\": [\"a\", \"b\",]\n  ,\n}\n"
	out, b := writeClient(t, "gemini-cli", t.TempDir(), ".gemini/settings.json", old)
	if !strings.Contains(out, "trailing comma (line 3, 4)") {
		t.Errorf("the output does not point at the trailing commas:\n%s", out)
	}
	// The entry goes after the object's trailing comma, which now separates
	// it; the array's stays (the note says so); asktray's entry adds none.
	d, err := parseJSONDoc(b, true)
	if err != nil || len(d.trailing) != 1 || d.trailing[0] != 3 {
		t.Errorf("trailing commas after the write: %v %v\n%s", d.trailing, err, b)
	}
	if !strings.Contains(string(b), `["a", "b",]`) {
		t.Errorf("the person's array changed:\n%s", b)
	}
	// Into a servers object that ends in a trailing comma: the entry takes
	// its place at the end without one (VS Code's JSONC would keep one).
	_, b = writeClient(t, "gemini-cli", t.TempDir(), ".gemini/settings.json", "{\"mcpServers\": {\n  \"x\": {\"url\": \"u\"},\n}}")
	if d, err := parseJSONDoc(b, true); err != nil || len(d.trailing) != 0 {
		t.Errorf("trailing commas %v %v:\n%s", d.trailing, err, b)
	}
}

// TestWrite_OpencodeFindsItsEntry: an entry moved straight under "mcp"
// (where opencode 1.18 reads it too) is updated there, with its "timeout"
// and "enabled"; no second entry appears under "mcp" → "servers", and the
// obsolete hint is gone.
func TestWrite_OpencodeFindsItsEntry(t *testing.T) {
	old := `{"mcp": {"asktray": {"type": "remote", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer old"}, "timeout": 9000, "enabled": false}}}`
	out, b := writeClient(t, "opencode", t.TempDir(), ".config/opencode/opencode.json", old)
	var doc struct {
		MCP map[string]json.RawMessage `json:"mcp"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.MCP["servers"]; ok {
		t.Errorf("a second entry:\n%s", b)
	}
	var e map[string]any
	if err := json.Unmarshal(doc.MCP["asktray"], &e); err != nil || e["url"] != testURL || e["timeout"] != 9000.0 || e["enabled"] != false {
		t.Errorf("entry %v %v:\n%s", e, err, b)
	}
	if strings.Contains(out, "up one level") {
		t.Errorf("the obsolete hint:\n%s", out)
	}
	// A new file still gets the entry under "servers", once.
	if _, fresh := writeClient(t, "opencode", t.TempDir(), ".config/opencode/opencode.json", ""); strings.Count(string(fresh), `"asktray"`) != 1 ||
		!strings.Contains(string(fresh), `"servers"`) {
		t.Errorf("a new file:\n%s", fresh)
	}
}

// TestWrite_CopilotReadsComments: Copilot CLI's mcp-config.json may hold
// comments and trailing commas, which Copilot CLI reads; asktray edits it as
// it does VS Code's, keeping both, and keeps the person's "tools".
func TestWrite_CopilotReadsComments(t *testing.T) {
	old := "{\n  // my servers\n  \"mcpServers\": {\n    \"gh\": {\"type\": \"http\", \"url\": \"https://example.invalid/mcp\",},\n" +
		"    \"asktray\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:1/mcp\", \"tools\": [\"human_input\"]},\n  },\n}\n"
	_, b := writeClient(t, "copilot-cli", t.TempDir(), ".copilot/mcp-config.json", old)
	if !strings.Contains(string(b), "// my servers") || !strings.Contains(string(b), `"https://example.invalid/mcp",}`) {
		t.Errorf("the person's bytes changed:\n%s", b)
	}
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(standardBytes(t, b), &doc); err != nil {
		t.Fatal(err)
	}
	if e := doc.MCPServers["asktray"]; e["url"] != testURL || len(e["tools"].([]any)) != 1 || e["headers"] == nil {
		t.Errorf("entry %v:\n%s", e, b)
	}
}

// standardBytes is b with comments and trailing commas taken out.
func standardBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := json.Marshal(standard(t, b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
