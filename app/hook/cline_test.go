package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCline_ParsesWhatItSends parses what Cline 3.0.65 handed its
// PreToolUse hook in a manual run (testdata/cline): the event from its
// hookName, the session its root session, the working directory its
// workspace root, run_commands' commands as one shell command.
func TestCline_ParsesWhatItSends(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "cline", "PreToolUse.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(Cline, "", b)
	if err != nil {
		t.Fatal(err)
	}
	var in struct{ Command string }
	if p.Event != PreToolUse || p.ToolName != "run_commands" || p.ToolUseID != "call_fake0011" || p.SessionID != "1796462378567_olwp9" ||
		p.Cwd != "/home/user/work" || json.Unmarshal(p.ToolInput, &in) != nil || in.Command != "echo ran-a > /home/user/work/a && echo ran-a" {
		t.Errorf("parsed %+v (input %s)", p, p.ToolInput)
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "sessionContext")
	m["hookName"] = "agent_start"
	other, _ := json.Marshal(m)
	if _, err := Parse(Cline, "", other); err == nil || !strings.Contains(err.Error(), "hookName") {
		t.Errorf("another hook's payload: %v, want an error naming hookName", err)
	}
	delete(m, "tool_call")
	m["hookName"] = "tool_call"
	other, _ = json.Marshal(m)
	if _, err := Parse(Cline, "", other); err == nil || !strings.Contains(err.Error(), "tool_call.name") {
		t.Errorf("no tool_call: %v", err)
	}
	doctor := []byte(`{"hook_event_name":"AsktrayDoctor","session_id":"s"}`)
	if p, err := Parse(Cline, "", doctor); err != nil || p.Event != Doctor {
		t.Errorf("the doctor's test request: %+v %v", p, err)
	}
}

// TestCline_Commands reads run_commands' input in each shape Cline takes.
func TestCline_Commands(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		`{"commands":["ls","pwd"]}`:                            {"ls", "pwd"},
		`{"commands":"ls -la"}`:                                {"ls -la"},
		`{"commands":[{"command":"rm","args":["-rf","a b"]}]}`: {"rm -rf 'a b'"},
		`{"command":"git status"}`:                             {"git status"},
		`{"cmd":"make"}`:                                       {"make"},
		`["a","b"]`:                                            {"a", "b"},
		`"echo x"`:                                             {"echo x"},
	} {
		if got := clineCommands(json.RawMessage(in)); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestCline_Answers: a deny is Cline's cancel, with the note as its
// errorMessage; an allow and no decision print nothing (Cline's own
// setting decides).
func TestCline_Answers(t *testing.T) {
	t.Parallel()
	b, _ := os.ReadFile(filepath.Join("testdata", "cline", "PreToolUse.json"))
	p, err := Parse(Cline, "", b)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Format(p, Reply{Behavior: Deny, Message: "not now"})); got != `{"cancel":true,"errorMessage":"not now"}`+"\n" {
		t.Errorf("deny printed %s", got)
	}
	for _, r := range []Reply{{Behavior: Allow}, {}, {Behavior: AskAgent, Message: "x"}} {
		if got := Format(p, r); got != nil {
			t.Errorf("%+v printed %s, want nothing", r, got)
		}
	}
	if got := StepAside(p); got != nil {
		t.Errorf("stepping aside printed %s", got)
	}
	sp, _ := Lookup(Cline)
	if !sp.GatesToolUse || !sp.RunsUndecided || !sp.IsShellTool("run_commands") || sp.PermissionEvent() != PreToolUse || sp.Preface == "" ||
		!sp.IsOwnTool("asktray__ask_user") || sp.IsOwnTool("mcp__asktray__ask_user") || sp.IsOwnTool("other__ask_user") {
		t.Errorf("spec %+v", sp)
	}
}

// TestCline_HookFile: the entry passes Cline's 120 s limit as --timeout;
// the hook file is a shell script in ~/.cline/hooks ($CLINE_DIR) that
// execs it, and reads back to the same command.
func TestCline_HookFile(t *testing.T) {
	t.Parallel()
	es := Entries(Cline, "/opt/ask tray/asktray", "/d")
	if len(es) != 1 || es[0].Timeout != 120 || !slices.Equal(es[0].Args, []string{"/opt/ask tray/asktray", "hook", "cline", "--timeout", "120", "--data-dir", "/d"}) {
		t.Fatalf("entries %+v", es)
	}
	sp, _ := Lookup(Cline)
	src := sp.Settings.Plugin.Source(es[0])
	if !strings.HasPrefix(string(src), "#!/bin/sh\n") || !strings.Contains(string(src), "\nexec '/opt/ask tray/asktray' hook cline --timeout 120 --data-dir /d\n") {
		t.Errorf("hook file:\n%s", src)
	}
	args, timeout, ok := sp.Settings.Plugin.Read(src)
	if !ok || timeout != 120 || !slices.Equal(args, es[0].Args) {
		t.Errorf("read back %q %d %v", args, timeout, ok)
	}
	if _, _, ok := sp.Settings.Plugin.Read([]byte("#!/bin/sh\necho mine\n")); ok {
		t.Error("a person's own hook read as asktray's")
	}
	env := func(k string) string { return map[string]string{"CLINE_DIR": "/c"}[k] }
	if got := sp.Settings.File("/home/u", func(string) string { return "" }); got != "/home/u/.cline/hooks/PreToolUse" {
		t.Errorf("hooks file %s", got)
	}
	if got := sp.Settings.File("/home/u", env); got != "/c/hooks/PreToolUse" {
		t.Errorf("hooks file with CLINE_DIR %s", got)
	}
}

// TestCline_Trust reads Cline's auto-approve setting.
func TestCline_Trust(t *testing.T) {
	t.Parallel()
	files := map[string]map[string]any{}
	env := TrustEnv{HooksFile: "/h/.cline/hooks/PreToolUse", Getenv: func(string) string { return "" },
		ReadJSON: func(p string) (map[string]any, bool, error) { return files[p], files[p] != nil, nil }}
	line := func() string {
		l := clineTrust(env)
		if len(l) != 2 || l[0].Status != TrustFine || l[0].What != "" || l[0].File != env.HooksFile {
			t.Fatalf("lines %+v", l)
		}
		return [...]string{"fine", "problem", "note"}[l[1].Status] + " " + l[1].File + " " + l[1].Text
	}
	if got := line(); !strings.HasPrefix(got, "fine /h/.cline/data/settings/global-settings.json auto-approve is on (Cline's default)") {
		t.Errorf("nothing set: %s", got)
	}
	files["/h/.cline/data/settings/global-settings.json"] = map[string]any{"toolAutoApprove": false}
	if got := line(); !strings.HasPrefix(got, "note /h/.cline/data/settings/global-settings.json is false: Cline asks in its own prompt after the hook") {
		t.Errorf("auto-approve off: %s", got)
	}
}
