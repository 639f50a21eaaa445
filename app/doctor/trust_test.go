package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/hook"
)

// TestCodexHash: the hash is the one Codex itself computes: each want is the
// currentHash Codex 0.171.0's app server (hooks/list) reported for that
// handler of a hooks.json.
func TestCodexHash(t *testing.T) {
	t.Parallel()
	f := clientsetup.FoundHook{Event: "PermissionRequest", Command: "/usr/bin/asktray hook codex --data-dir /d", Timeout: 86406, Raw: map[string]any{}}
	if got, want := codexHash(f), "sha256:ac71c654e84d1c6ef9b153547e57f576ef31da5dadf4a8368c9aac12ae38638e"; got != want {
		t.Fatalf("codexHash = %s, Codex says %s", got, want)
	}
	// A group with a matcher and a handler with a statusMessage, and one
	// with no timeout (Codex's default, 600 s): what Codex 0.171.0 reported
	// for them.
	for _, c := range []struct {
		f    clientsetup.FoundHook
		want string
	}{
		{clientsetup.FoundHook{Event: "PermissionRequest", Matcher: "Bash", HasMatcher: true, Command: "/usr/bin/asktray hook codex", Timeout: 30,
			Raw: map[string]any{"statusMessage": "Asking in the tray"}}, "sha256:e8c624d71804eeff8844d0739ebfaf4828b78b1273101a5a61a1c671ed9f5af0"},
		{clientsetup.FoundHook{Event: "PermissionRequest", Command: "/x/asktray hook codex", Raw: map[string]any{}},
			"sha256:321ff18d487f476d3753b9f2234fa394ac6027a782e94ee81bd626113a2b66d0"},
	} {
		if got := codexHash(c.f); got != c.want {
			t.Errorf("codexHash(%+v) = %s, Codex says %s", c.f, got, c.want)
		}
	}
	if hook.CodexEventName("PermissionRequest") != "permission_request" || hook.CodexEventName("PostToolUseFailure") != "post_tool_use_failure" {
		t.Fatal(hook.CodexEventName("PermissionRequest"), hook.CodexEventName("PostToolUseFailure"))
	}
}

// TestDistrusted: for each agent, the agent's own switch or review state
// that keeps the asktray hooks from running is a problem naming the file
// and the key.
func TestDistrusted(t *testing.T) {
	t.Parallel()
	t.Run("claude-code", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t)
		h := s.hooks("claude-code", s.env.Sys, s.env.DataDir)
		b, _ := os.ReadFile(h.Path)
		mkfile(t, h.Path, strings.Replace(string(b), "{", `{"disableAllHooks": true,`, 1))
		problem(t, s.check(), "claude-code", h.Path, "disableAllHooks")
		local := filepath.Join(s.env.Cwd, ".claude", "settings.local.json")
		mkfile(t, h.Path, string(b))
		mkfile(t, local, `{"disableAllHooks": true}`)
		r := s.check()
		problem(t, r, "claude-code", local, "disableAllHooks")
		if len(r.Problems()) != 1 {
			t.Fatalf("%s", text(r))
		}
	})
	t.Run("codex", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t)
		h := s.hooks("codex", s.env.Sys, s.env.DataDir)
		cfg := filepath.Join(filepath.Dir(h.Path), "config.toml")
		key := `hooks.state."` + h.Path + `:permission_request:0:0"`
		if l := problem(t, s.check(), "codex", cfg, key+".trusted_hash"); !strings.Contains(l.Text, "/hooks") {
			t.Fatalf("never trusted: %+v", l)
		}
		s.trustCodex(h, func(clientsetup.FoundHook) string { return "sha256:0123" })
		if l := problem(t, s.check(), "codex", cfg, key+".trusted_hash"); !strings.Contains(l.Text, "changed since you trusted it") {
			t.Fatalf("changed: %+v", l)
		}
		s.trustCodex(h, codexHash)
		if r := s.check(); !r.OK() {
			t.Fatalf("trusted: %s", text(r))
		}
		b, _ := os.ReadFile(cfg)
		// Turned off in the permission hook's own table (the turn events'
		// tables follow it).
		head := "[hooks.state." + quoteTOML(h.Path+":permission_request:0:0") + "]\n"
		mkfile(t, cfg, strings.Replace(string(b), head, head+"enabled = false\n", 1))
		problem(t, s.check(), "codex", cfg, key+".enabled")
		mkfile(t, cfg, "[features]\nhooks = false\n"+string(b))
		problem(t, s.check(), "codex", cfg, "features.hooks")
	})
	t.Run("copilot-cli", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t)
		s.hooks("copilot-cli", s.env.Sys, s.env.DataDir)
		home := filepath.Join(s.home, ".copilot")
		mkfile(t, filepath.Join(home, "settings.json"), "// the person's\n{\"disableAllHooks\": true,}\n")
		problem(t, s.check(), "copilot-cli", filepath.Join(home, "settings.json"), "disableAllHooks")
		mkfile(t, filepath.Join(home, "settings.json"), "{}")
		cfg := filepath.Join(home, "config.json")
		mkfile(t, cfg, "// This file is managed automatically.\n{\"trustedFolders\": [\""+s.home+"\"]}\n")
		if r := s.check(); !r.OK() || !hasLine(r, "copilot-cli", Fine, "Copilot CLI trusts "+s.env.Cwd) {
			t.Fatalf("trusted parent: %s", text(r))
		}
		mkfile(t, cfg, "{\"trustedFolders\": [\"/somewhere/else\"]}")
		if r := s.check(); !r.OK() || !hasLine(r, "copilot-cli", Note, "is not among the folders Copilot CLI trusts") {
			t.Fatalf("not trusted: %s", text(r))
		}
	})
	t.Run("gemini-cli", func(t *testing.T) {
		t.Parallel()
		s := newScratch(t)
		s.mcp("gemini-cli", s.env.Sys, s.env.DataDir, s.env.Server, true)
		tf := filepath.Join(s.home, ".gemini", "trustedFolders.json")
		mkfile(t, tf, `{"`+s.home+`": "TRUST_FOLDER", "`+s.env.Cwd+`": "DO_NOT_TRUST"}`)
		if l := problem(t, s.check(), "gemini-cli", tf, s.env.Cwd); !strings.Contains(l.Text, "keeps MCP servers") {
			t.Fatalf("distrusted: %+v", l)
		}
		mkfile(t, tf, `{"`+filepath.Join(s.env.Cwd, "x")+`": "TRUST_PARENT"}`)
		if r := s.check(); !r.OK() || !hasLine(r, "gemini-cli", Fine, "Gemini CLI trusts") {
			t.Fatalf("trusted by a child's TRUST_PARENT: %s", text(r))
		}
	})
}

func hasLine(r Report, client string, st Status, says string) bool {
	for _, l := range r.Lines {
		if l.Client == client && l.Status == st && strings.Contains(l.Text, says) {
			return true
		}
	}
	return false
}

// TestShellWords reads back what hook.Entry.Command quotes.
func TestShellWords(t *testing.T) {
	t.Parallel()
	args := []string{"/opt/My Apps/asktray", "hook", "codex", "--data-dir", "/home/o'neil/data dir"}
	got := shellWords(hook.Entry{Args: args}.Command())
	if strings.Join(got, "|") != strings.Join(args, "|") {
		t.Fatalf("%q", got)
	}
	if got := shellWords(`"/a b/asktray" hook x\ y`); strings.Join(got, "|") != "/a b/asktray|hook|x y" {
		t.Fatalf("%q", got)
	}
}

// TestTestRequest: the test request goes through the installed command line
// as the agent runs it, with the Doctor event in the agent's spelling; an
// acknowledged one that the app shows as a notice is fine, anything else a
// problem naming the handler's command key.
func TestTestRequest(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	h := s.hooks("copilot-cli", s.env.Sys, s.env.DataDir)
	var argv []string
	var stdin []byte
	reply := []byte(`{"asktray_doctor_received":true,"question_id":"q1"}`)
	s.env.Test = true
	s.env.Run = func(_ context.Context, a []string, in []byte) ([]byte, []byte, error) {
		argv, stdin = a, in
		return reply, nil, nil
	}
	var shown []string
	s.env.Notice = func(_ context.Context, id string) error { shown = append(shown, id); return nil }
	r := s.check()
	if len(argv) != 3 || argv[1] != "-c" || argv[2] != hook.Entries(hook.CopilotCLI, s.env.Sys.Exe, s.env.DataDir)[0].Command() {
		t.Fatalf("ran %q", argv)
	}
	p, err := hook.Parse(hook.CopilotCLI, "", stdin)
	if err != nil || p.Event != hook.Doctor || p.Cwd != s.env.Cwd || p.Message != h.Path {
		t.Fatalf("payload %s: %+v %v", stdin, p, err)
	}
	if !r.OK() || !hasLine(r, "copilot-cli", Fine, "reached Asktray") || len(shown) != 1 || shown[0] != "q1" {
		t.Fatalf("acknowledged: %v\n%s", shown, text(r))
	}
	reply = nil
	s.env.Run = func(context.Context, []string, []byte) ([]byte, []byte, error) {
		return nil, []byte("asktray hook: the socket is served by pid 9; stepping aside\n"), nil
	}
	l := problem(t, s.check(), "copilot-cli", h.Path, "hooks.permissionRequest[0].bash")
	if !strings.Contains(l.Text, "did not reach Asktray (asktray hook: the socket is served by pid 9; stepping aside)") {
		t.Fatalf("not acknowledged: %+v", l)
	}
}

// TestDoctorRequestAllowsNothing: whatever the server replies to a test
// request, the hook prints no decision.
func TestDoctorRequestAllowsNothing(t *testing.T) {
	t.Parallel()
	for _, a := range hook.Agents() {
		p := hook.Payload{Agent: a, Event: hook.Doctor, ToolName: "Bash"}
		out := string(hook.Format(p, hook.Reply{Behavior: hook.Allow, QuestionID: "q"}))
		if strings.Contains(out, "allow") || strings.Contains(out, "behavior") || !strings.Contains(out, `"question_id":"q"`) {
			t.Errorf("%s: %s", a, out)
		}
		if out := hook.Format(p, hook.Reply{Behavior: hook.Allow}); out != nil {
			t.Errorf("%s without a notice: %s", a, out)
		}
	}
}
