package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiMode reads Gemini CLI's approval mode from the command lines
// the hook's ancestors ran, as Gemini CLI 0.61.0 runs them (its launcher
// starts a second node with --max-old-space-size and the same arguments,
// which runs the hook through sh -c, which execs it).
func TestGeminiMode(t *testing.T) {
	t.Parallel()
	child := []string{"/usr/bin/node", "--max-old-space-size=12052", "/n/node_modules/@google/gemini-cli/bundle/gemini.js", "-m", "m"}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "default"}, {[]string{"--yolo"}, "yolo"}, {[]string{"-y"}, "yolo"},
		{[]string{"--approval-mode", "yolo"}, "yolo"}, {[]string{"--approval-mode=auto_edit"}, "auto_edit"},
		{[]string{"--approval-mode", "plan"}, "plan"},
	} {
		argv := append(append([]string(nil), child...), c.extra...)
		if got := geminiMode([][]string{{"sh", "-c", "asktray hook gemini-cli"}, argv}); got != c.want {
			t.Errorf("%v: %q, want %q", c.extra, got, c.want)
		}
	}
	if got := geminiMode([][]string{{"/bin/bash"}, {"/usr/bin/node", "/x/other.js", "--yolo"}}); got != "" {
		t.Errorf("no Gemini among the ancestors: %q", got)
	}
	if got := geminiMode([][]string{{"/home/u/.local/bin/gemini", "--yolo"}}); got != "yolo" {
		t.Errorf("its launcher: %q", got)
	}
}

// TestGeminiAnswers: Gemini CLI's BeforeTool reads {"decision": …}: a deny
// carries the reason the model reads, an ask the warning shown in its
// prompt, and no decision prints nothing; its entries' timeouts are in
// milliseconds, and its own MCP tools are named mcp_asktray_TOOL.
func TestGeminiAnswers(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "gemini-cli", "BeforeTool.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(GeminiCLI, "", b)
	if err != nil || p.Event != PreToolUse || p.ToolName != "run_shell_command" || p.SessionID == "" {
		t.Fatalf("parsed %+v, %v", p, err)
	}
	for _, c := range []struct {
		r    Reply
		want string
	}{
		{Reply{Behavior: Allow}, `{"decision":"allow"}`},
		{Reply{Behavior: Deny, Message: "not <now> & later"}, `{"decision":"deny","reason":"not <now> & later"}`},
		{Reply{Behavior: AskAgent, Message: "high risk"}, `{"decision":"ask","systemMessage":"high risk"}`},
		{Reply{}, ``},
	} {
		if got := strings.TrimSpace(string(Format(p, c.r))); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
	for _, e := range Entries(GeminiCLI, "/usr/bin/asktray", "") {
		if e.Timeout != InstalledTimeout()*1000 || e.Matcher != "" {
			t.Errorf("%s: timeout %d, matcher %q", e.Event, e.Timeout, e.Matcher)
		}
	}
	sp, _ := Lookup(GeminiCLI)
	if !sp.IsOwnTool("mcp_asktray_ask_user") || sp.IsOwnTool("mcp_asktray_") || sp.IsOwnTool("mcp__asktray__ask_user") || sp.IsOwnTool("run_shell_command") {
		t.Error("own tools")
	}
	if sp.ApprovesIn("default") || !sp.ApprovesIn(GeminiYolo) {
		t.Error("Approves: only yolo runs an allowed call unasked")
	}
	if got := sp.Settings.File("/home/u", func(k string) string { return map[string]string{"GEMINI_CLI_HOME": "/g"}[k] }); got != "/g/.gemini/settings.json" {
		t.Errorf("settings file %s", got)
	}
}

// TestGeminiTrust reads hooksConfig.enabled and the folder trust that
// keeps Gemini CLI out of yolo mode.
func TestGeminiTrust(t *testing.T) {
	t.Parallel()
	files := map[string]map[string]any{}
	env := TrustEnv{Cwd: "/w/p", HooksFile: "/h/.gemini/settings.json", Getenv: func(string) string { return "" },
		ReadJSON: func(p string) (map[string]any, bool, error) { return files[p], files[p] != nil, nil }}
	status := func() (out []TrustStatus) {
		for _, l := range geminiTrust(env) {
			out = append(out, l.Status)
		}
		return out
	}
	files["/h/.gemini/settings.json"] = map[string]any{"hooksConfig": map[string]any{"enabled": false}}
	if got := status(); len(got) != 2 || got[0] != TrustProblem || got[1] != TrustNote {
		t.Errorf("hooks off, folder not trusted: %v", got)
	}
	files["/h/.gemini/settings.json"] = map[string]any{}
	files["/h/.gemini/trustedFolders.json"] = map[string]any{"/w/p/sub": "TRUST_PARENT"}
	if got := status(); len(got) != 2 || got[0] != TrustFine || got[1] != TrustFine {
		t.Errorf("hooks on, parent trusted: %v", got)
	}
	files["/h/.gemini/trustedFolders.json"] = map[string]any{"/w": "TRUST_FOLDER", "/w/p": "DO_NOT_TRUST"}
	if got := status(); len(got) != 2 || got[1] != TrustNote {
		t.Errorf("the nearer DO_NOT_TRUST wins: %v", got)
	}
}
