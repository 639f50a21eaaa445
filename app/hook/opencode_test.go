package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpencode_ParsesWhatThePluginHands: the plugin hands the hook
// opencode's own permission.asked event (recorded from opencode 1.18.33)
// and, for permission.replied, the asked event it answers; a reject there
// is a call that did not run.
func TestOpencode_ParsesWhatThePluginHands(t *testing.T) {
	t.Parallel()
	asked, err := os.ReadFile(filepath.Join("testdata", "opencode", "permission.asked.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(Opencode, "", asked)
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(p.ToolInput, &in)
	if p.Event != PermissionRequest || p.ToolName != "bash" || in.Command != "echo hi > /tmp/oc/work/ran1" ||
		p.SessionID != "ses_dbbb966d9ffesnbjFPcfBFKkp9" || p.Cwd != "/tmp/oc/work" || p.ToolUseID != "call_fake0003" {
		t.Errorf("parsed %+v", p)
	}
	var wrapped struct {
		Event json.RawMessage `json:"event"`
	}
	_ = json.Unmarshal(asked, &wrapped)
	for reply, want := range map[string]string{"once": PostToolUse, "always": PostToolUse, "reject": PostToolUseFailure} {
		replied := `{"directory":"/w","event":{"type":"permission.replied","properties":{"sessionID":"ses_dbbb966d9ffesnbjFPcfBFKkp9","requestID":"per_24446c4eb001MhMZf7gUMbA2nF","reply":"` + reply + `"}},"asked":` + string(wrapped.Event) + `}`
		q, err := Parse(Opencode, "", []byte(replied))
		if err != nil || q.Event != want || q.ToolName != "bash" || q.ToolUseID != p.ToolUseID || string(q.ToolInput) != string(p.ToolInput) {
			t.Errorf("%s: parsed %+v, %v; want %s of the asked call", reply, q, err, want)
		}
	}
	for name, bad := range map[string]string{
		"no asked":    `{"event":{"type":"permission.replied","properties":{"requestID":"per_1","reply":"once"}}}`,
		"other asked": `{"event":{"type":"permission.replied","properties":{"requestID":"per_1"}},"asked":{"type":"permission.asked","properties":{"id":"per_2","permission":"bash"}}}`,
		"other event": `{"event":{"type":"session.idle","properties":{}}}`,
	} {
		if _, err := Parse(Opencode, "", []byte(bad)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// The doctor's test request is not wrapped.
	if d, err := Parse(Opencode, "", []byte(`{"hook_event_name":"AsktrayDoctor","session_id":"asktray-doctor","cwd":"/w"}`)); err != nil || d.Event != Doctor {
		t.Errorf("doctor's request: %+v, %v", d, err)
	}
}

// TestOpencode_Answer is the body the plugin posts to opencode's reply
// route: once, or reject with the note; nothing for no decision.
func TestOpencode_Answer(t *testing.T) {
	t.Parallel()
	p := Payload{Agent: Opencode, Event: PermissionRequest, ToolName: "bash"}
	for _, c := range []struct {
		r    Reply
		want string
	}{
		{Reply{Behavior: Allow, Message: "ignored"}, `{"reply":"once"}`},
		{Reply{Behavior: Deny, Message: "not now"}, `{"reply":"reject","message":"not now"}`},
		{Reply{}, ``},
	} {
		r, want := c.r, c.want
		if got := strings.TrimSpace(string(Format(p, r))); got != want {
			t.Errorf("%+v: %s, want %s", r, got, want)
		}
	}
}

// TestOpencode_PluginEntry: the plugin file holds the command it runs, and
// reads back as that command and timeout; a file without it reads as none.
func TestOpencode_PluginEntry(t *testing.T) {
	t.Parallel()
	sp, _ := Lookup(Opencode)
	e := Entries(Opencode, "/opt/ask tray/asktray", "/d 'x'")[0]
	src := sp.Settings.Plugin.Source(e)
	args, timeout, ok := sp.Settings.Plugin.Read(src)
	if !ok || strings.Join(args, "\x00") != strings.Join(e.Args, "\x00") || timeout != e.Timeout {
		t.Fatalf("read back %q %d %v from\n%s", args, timeout, ok, src)
	}
	for _, must := range []string{"permission.asked", "permission.replied", "/permission/{requestID}/reply", "export const AsktrayPlugin"} {
		if !strings.Contains(string(src), must) {
			t.Errorf("the plugin lacks %q", must)
		}
	}
	if _, _, ok := sp.Settings.Plugin.Read([]byte("export const Mine = async () => ({});\n")); ok {
		t.Error("a plugin of someone else's reads as asktray's")
	}
}

// TestKilo_ParsesWhatThePluginHands: Kilo 7.7.9's permission.asked, as the
// same plugin hands it over, parses as opencode's does.
func TestKilo_ParsesWhatThePluginHands(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "kilo", "permission.asked.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(Kilo, "", b)
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(p.ToolInput, &in)
	if err != nil || p.Event != PermissionRequest || p.ToolName != "bash" || in.Command != "echo AUTOREPLY > /tmp/oc/h5/work/k1" || p.Cwd != "/tmp/oc/h5/work" {
		t.Errorf("parsed %+v, %v", p, err)
	}
	if got := strings.TrimSpace(string(Format(p, Reply{Behavior: Deny, Message: "no"}))); got != `{"reply":"reject","message":"no"}` {
		t.Errorf("deny: %s", got)
	}
}

// TestPluginAgents_AskRuleTrust: the doctor says when no permission rule
// says "ask" (nothing would reach the tray), and names the file of one that
// does, global or the project's.
func TestPluginAgents_AskRuleTrust(t *testing.T) {
	t.Parallel()
	for _, a := range []Agent{Opencode, Kilo} {
		sp, _ := Lookup(a)
		file := sp.Settings.File("/h", func(string) string { return "" })
		files := map[string]map[string]any{}
		env := TrustEnv{HooksFile: file, Cwd: "/p", ReadJSON: func(path string) (map[string]any, bool, error) {
			m, ok := files[path]
			return m, ok, nil
		}}
		if l := sp.Trust(env); len(l) != 1 || l[0].Status != TrustNote || !strings.Contains(l[0].Text, `no rule says "ask"`) {
			t.Errorf("%s without a rule: %+v", a, l)
		}
		files[filepath.Join("/p", map[Agent]string{Opencode: "opencode.json", Kilo: "kilo.json"}[a])] = map[string]any{"permission": map[string]any{"edit": "allow", "bash": map[string]any{"git *": "allow", "*": "ask"}}}
		if l := sp.Trust(env); len(l) != 1 || l[0].Status != TrustFine || !strings.HasPrefix(l[0].File, "/p/") {
			t.Errorf("%s with the project's rule: %+v", a, l)
		}
	}
}
