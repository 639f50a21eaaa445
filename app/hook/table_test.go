package hook

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEveryAgentIsComplete holds the table to docs/architecture.md's
// "Adding an agent": every agent is declared in its own file here, has a
// recorded payload of its permission event that parses as that event, a
// section in docs/hooks.md and a row in docs/clients.md; its spec names
// everything set-up needs.
func TestEveryAgentIsComplete(t *testing.T) {
	t.Parallel()
	hooksDoc := readDoc(t, "hooks.md")
	clientsDoc := readDoc(t, "clients.md")
	if len(Specs()) < 3 {
		t.Fatalf("the table holds %d agents", len(Specs()))
	}
	for _, sp := range Specs() {
		file := strings.ReplaceAll(string(sp.Name), "-", "_") + ".go"
		if b, err := os.ReadFile(file); err != nil || !bytes.Contains(b, []byte("register(Spec{")) {
			t.Errorf("%s: its spec is not in %s (%v)", sp.Name, file, err)
		}
		st := sp.Settings
		if st.CommandKey == "" || st.TimeoutKey == "" || st.Note == nil || sp.Settings.File("/home/u", func(string) string { return "" }) == "" {
			t.Errorf("%s: settings lack a command key, a timeout key, a note or a file: %+v", sp.Name, st)
		}
		perm := sp.PermissionEvent()
		want := PermissionRequest
		if NormalizeEvent(perm) == PreToolUse && sp.GatesToolUse {
			want = PreToolUse // its PreToolUse is where it asks (Gemini CLI's BeforeTool)
		}
		if NormalizeEvent(perm) != want {
			t.Errorf("%s: its first event %q is not its permission event", sp.Name, perm)
		}
		b, err := os.ReadFile(filepath.Join("testdata", string(sp.Name), perm+".json"))
		if err != nil {
			t.Errorf("%s: no recorded payload of %s: %v", sp.Name, perm, err)
		} else if p, err := Parse(sp.Name, perm, b); err != nil || p.Event != want || p.ToolName == "" {
			t.Errorf("%s: its recorded %s parses as %+v, %v", sp.Name, perm, p, err)
		}
		if !bytes.Contains(hooksDoc, []byte("\n## "+sp.Title+"\n")) {
			t.Errorf("%s: docs/hooks.md has no section \"## %s\"", sp.Name, sp.Title)
		}
		if !bytes.Contains(clientsDoc, []byte("\n| `"+string(sp.Name)+"` |")) {
			t.Errorf("%s: docs/clients.md has no row for it in the hooks table", sp.Name)
		}
	}
}

// agentConst matches the agent names this package declares.
var agentConst = regexp.MustCompile(`\bhook\.(ClaudeCode|Codex|CopilotCLI|Opencode|GeminiCLI|Kilo|QwenCode|Droid|Cline)\b`)

// TestNoAgentSwitchOutsideTheTable: no code outside app/hook names an
// agent, so a new agent needs no switch elsewhere (tests may name them).
func TestNoAgentSwitchOutsideTheTable(t *testing.T) {
	t.Parallel()
	for _, a := range Agents() {
		// Every agent constant is one the pattern knows.
		name := map[Agent]string{ClaudeCode: "ClaudeCode", Codex: "Codex", CopilotCLI: "CopilotCLI", Opencode: "Opencode", GeminiCLI: "GeminiCLI", Kilo: "Kilo", QwenCode: "QwenCode", Droid: "Droid", Cline: "Cline"}[a]
		if name == "" {
			t.Errorf("agent %s: add its constant to agentConst", a)
		}
	}
	root := filepath.Join("..", "..")
	for _, top := range []string{"app", "ui", "mcpbridge", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || path == filepath.Join(root, "app", "hook")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			return checkNoAgentNamed(t, path)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func checkNoAgentNamed(t *testing.T, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !agentConst.Match(b) {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, b, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/asktray/asktray/app/hook" && (imp.Name == nil || imp.Name.Name == "hook") {
			for _, m := range agentConst.FindAll(b, -1) {
				t.Errorf("%s names %s: let the agent table (app/hook) carry the difference", path, m)
			}
		}
	}
	return nil
}

func readDoc(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
