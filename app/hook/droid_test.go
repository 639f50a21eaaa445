package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDroid_ParsesWhatItSends parses what Factory Droid 0.225.2 sent its
// hooks in a manual run against a fake model (testdata/droid): snake_case
// with hook_event_name, not the camelCase some sources describe; its shell
// tool Execute with the model's riskLevel; its autonomy level as
// permission_mode.
func TestDroid_ParsesWhatItSends(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, event, tool string }{
		{"PreToolUse", PreToolUse, "Execute"},
		{"Notification", Notification, ""},
		{"UserPromptSubmit", UserPromptSubmit, ""},
		{"Stop", Stop, ""},
		{"SessionEnd", SessionEnd, ""},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "droid", c.file+".json"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(Droid, "", b)
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if p.Event != c.event || p.ToolName != c.tool || p.SessionID == "" || p.Cwd != "/home/user/work" || p.PermissionMode != "off" {
			t.Errorf("%s: event %q tool %q session %q cwd %q mode %q", c.file, p.Event, p.ToolName, p.SessionID, p.Cwd, p.PermissionMode)
		}
	}
}

// TestDroid_Answers: Droid reads Claude Code's PreToolUse decision (an
// allow skips its own approval, a deny's reason is the tool's result the
// model reads, observed); no decision prints nothing. Entries go in
// settings.json, matcher groups, timeouts in seconds.
func TestDroid_Answers(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "droid", "PreToolUse.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(Droid, "", b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r    Reply
		want string
	}{
		{Reply{Behavior: Allow}, `"permissionDecision":"allow"`},
		{Reply{Behavior: Deny, Message: "not now"}, `"permissionDecision":"deny","permissionDecisionReason":"not now"`},
	} {
		if got := string(Format(p, c.r)); !strings.Contains(got, `"hookEventName":"PreToolUse"`) || !strings.Contains(got, c.want) {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
	if got := strings.TrimSpace(string(Format(p, Reply{}))); got != "" {
		t.Errorf("no decision printed %s", got)
	}
	for _, e := range Entries(Droid, "/usr/bin/asktray", "") {
		if e.Timeout != InstalledTimeout() || e.Matcher != "" {
			t.Errorf("%s: timeout %d, matcher %q", e.Event, e.Timeout, e.Matcher)
		}
	}
	sp, _ := Lookup(Droid)
	if !sp.IsShellTool("Execute") || !sp.GatesToolUse || sp.PermissionEvent() != PreToolUse ||
		!sp.IsOwnTool("asktray___ask_user") || sp.IsOwnTool("mcp__asktray__ask_user") || sp.IsOwnTool("other___ask_user") {
		t.Errorf("spec %+v", sp)
	}
	if got := sp.Settings.File("/home/u", func(string) string { return "" }); got != "/home/u/.factory/settings.json" {
		t.Errorf("settings file %s", got)
	}
}

// TestDroid_Trust reads hooks.hooksDisabled, and a hooks.json whose events
// replace the ones asktray installed in settings.json.
func TestDroid_Trust(t *testing.T) {
	t.Parallel()
	files := map[string]map[string]any{}
	env := TrustEnv{HooksFile: "/h/.factory/settings.json", Getenv: func(string) string { return "" },
		Found:    []Installed{{Event: PreToolUse}, {Event: Stop}},
		ReadJSON: func(p string) (map[string]any, bool, error) { return files[p], files[p] != nil, nil }}
	lines := func() (out []string) {
		for _, l := range droidTrust(env) {
			out = append(out, [...]string{"fine", "problem", "note"}[l.Status]+" "+filepath.Base(l.File)+" "+l.Key)
		}
		return out
	}
	if got := strings.Join(lines(), ";"); got != "fine settings.json " {
		t.Errorf("nothing set: %s", got)
	}
	files["/h/.factory/settings.json"] = map[string]any{"hooks": map[string]any{"hooksDisabled": true}}
	files["/h/.factory/hooks.json"] = map[string]any{"Stop": []any{}, "SessionStart": []any{}}
	if got := strings.Join(lines(), ";"); got != "problem settings.json hooks.hooksDisabled;problem hooks.json Stop" {
		t.Errorf("hooks off, Stop shadowed: %s", got)
	}
}
