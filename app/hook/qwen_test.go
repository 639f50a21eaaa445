package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQwen_ParsesWhatItSends parses what Qwen Code 0.24.4 sent its hooks
// in a manual run against a fake model (testdata/qwen): Claude Code's
// snake_case shape, its event named, its own tool names.
func TestQwen_ParsesWhatItSends(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, event, tool string }{
		{"PermissionRequest", PermissionRequest, "run_shell_command"},
		{"Notification", Notification, ""},
		{"PostToolUse", PostToolUse, "run_shell_command"},
		{"UserPromptSubmit", UserPromptSubmit, ""},
		{"Stop", Stop, ""},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "qwen", c.file+".json"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(QwenCode, "", b)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if p.Event != c.event || p.ToolName != c.tool || p.SessionID == "" || p.Cwd != "/home/user/work" {
			t.Errorf("%s: event %q tool %q session %q cwd %q", c.file, p.Event, p.ToolName, p.SessionID, p.Cwd)
		}
		if c.event == PermissionRequest && p.PermissionMode != "default" {
			t.Errorf("%s: permission mode %q", c.file, p.PermissionMode)
		}
	}
}

// TestQwen_Answers: Qwen Code reads Claude Code's PermissionRequest
// decision (a deny's message is what the model reads); no decision prints
// nothing, which opens its own prompt. Its entries' timeouts are written in
// milliseconds: Qwen reads any timeout of 1000 or more as milliseconds, so
// asktray's day in seconds (86406) would be 86 s.
func TestQwen_Answers(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "qwen", "PermissionRequest.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(QwenCode, "", b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    Reply
		want string
	}{
		{Reply{Behavior: Allow}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{Reply{Behavior: Deny, Message: "not now"}, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not now"}}}`},
		{Reply{}, ``},
	} {
		if got := strings.TrimSpace(string(Format(p, c.r))); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
	entries := Entries(QwenCode, "/usr/bin/asktray", "")
	if len(entries) != 7 || entries[0].Event != PermissionRequest {
		t.Fatalf("entries %+v", entries)
	}
	for _, e := range entries {
		if e.Timeout != InstalledTimeout()*1000 || e.Matcher != "" {
			t.Errorf("%s: timeout %d, matcher %q", e.Event, e.Timeout, e.Matcher)
		}
		if e.Event == PreToolUse {
			t.Error("PreToolUse is installed: Qwen runs it only once a call was approved")
		}
	}
	sp, _ := Lookup(QwenCode)
	if !sp.IsShellTool("run_shell_command") || !sp.NamesMCPTools || sp.AsksToo || sp.GatesToolUse {
		t.Errorf("spec %+v", sp)
	}
	if got := sp.Settings.File("/home/u", func(k string) string { return map[string]string{"QWEN_HOME": "/q"}[k] }); got != "/q/settings.json" {
		t.Errorf("settings file with QWEN_HOME: %s", got)
	}
	if got := sp.Settings.File("/home/u", func(string) string { return "" }); got != "/home/u/.qwen/settings.json" {
		t.Errorf("settings file %s", got)
	}
}

// TestQwen_Trust reads disableAllHooks in the user's and the project's
// settings, and notes a mode in which little or nothing reaches the tray.
func TestQwen_Trust(t *testing.T) {
	t.Parallel()
	files := map[string]map[string]any{}
	env := TrustEnv{Cwd: "/w/p", HooksFile: "/h/.qwen/settings.json", Getenv: func(string) string { return "" },
		ReadJSON: func(p string) (map[string]any, bool, error) { return files[p], files[p] != nil, nil }}
	lines := func() (out []string) {
		for _, l := range qwenTrust(env) {
			out = append(out, [...]string{"fine", "problem", "note"}[l.Status]+" "+l.File+" "+l.Key)
		}
		return out
	}
	if got := strings.Join(lines(), ";"); got != "fine /h/.qwen/settings.json " {
		t.Errorf("nothing set: %s", got)
	}
	files["/w/p/.qwen/settings.json"] = map[string]any{"disableAllHooks": true, "tools": map[string]any{"approvalMode": "yolo"}}
	if got := strings.Join(lines(), ";"); got != "problem /w/p/.qwen/settings.json disableAllHooks;note /w/p/.qwen/settings.json tools.approvalMode" {
		t.Errorf("project turns hooks off, yolo: %s", got)
	}
	files["/w/p/.qwen/settings.json"] = nil
	files["/h/.qwen/settings.json"] = map[string]any{"tools": map[string]any{"approvalMode": "default"}}
	if got := strings.Join(lines(), ";"); got != "fine /h/.qwen/settings.json " {
		t.Errorf("default mode: %s", got)
	}
}
