package clientsetup

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// codexHookKeys returns every handler of a Codex hooks.json by the place Codex
// keys its review on (event:group:handler), with the handler's bytes
// standardized: what Codex would see as changed or moved.
func codexHookKeys(t *testing.T, b []byte) map[string]string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Hooks []json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	out := map[string]string{}
	for ev, groups := range doc.Hooks {
		for i, g := range groups {
			for j, h := range g.Hooks {
				var c bytes.Buffer
				if err := json.Compact(&c, h); err != nil {
					t.Fatal(err)
				}
				out[ev+":"+strconv.Itoa(i)+":"+strconv.Itoa(j)] = c.String()
			}
		}
	}
	return out
}

// TestHooks_CodexRewriteKeepsPlaces is finding 7 of issue 25: Codex asks the
// person to review a hook whose entry changed, keyed by its place in the file.
// Rewriting an older asktray entry (one with --timeout in its command) changes
// only that handler's own keys, in its place: the person's groups before and
// after it, their bytes and their places stay; a key of the person's inside
// asktray's handler stays too; the events the older entry lacked (Codex's
// turn events) are added after the person's groups. Rerunning with another
// deadline then changes not a byte.
func TestHooks_CodexRewriteKeepsPlaces(t *testing.T) {
	home := t.TempDir()
	h := hooksFor(t, "codex", home, nil)
	old := `{
    "hooks": {
        "PermissionRequest": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "/opt/relay.sh",   "timeout": 30 } ] },
            {
                "hooks": [
                    {"type": "command", "command": "/opt/asktray/bin/asktray hook codex --timeout 306 --data-dir /data", "timeout": 306, "statusMessage": "Asking in the tray"}
                ]
            },
            { "hooks": [ { "type": "command", "command": "/opt/audit.sh" } ] }
        ],
        "Stop": [ { "hooks": [ { "type": "command", "command": "/opt/stop.sh" } ] } ]
    }
}
`
	if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	before := codexHookKeys(t, []byte(old))
	out := run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	if !strings.Contains(out, "review") || !strings.Contains(out, "once") {
		t.Errorf("the output does not say Codex asks once to review:\n%s", out)
	}
	first, _ := os.ReadFile(h.Path)
	after := codexHookKeys(t, first)
	for _, k := range []string{"PermissionRequest:0:0", "PermissionRequest:2:0", "Stop:0:0"} {
		if after[k] != before[k] {
			t.Errorf("%s changed or moved: %s, was %s", k, after[k], before[k])
		}
	}
	if got, want := after["PermissionRequest:1:0"], `{"type":"command","command":"/opt/asktray/bin/asktray hook codex --data-dir /data","timeout":86406,"statusMessage":"Asking in the tray"}`; got != want {
		t.Errorf("asktray's handler in its place:\n got %s\nwant %s", got, want)
	}
	// The turn events' handlers the older entry lacked come after the
	// person's: Stop's second group, UserPromptSubmit's first.
	ours := `{"type":"command","command":"/opt/asktray/bin/asktray hook codex --data-dir /data","timeout":86406}`
	if after["Stop:1:0"] != ours || after["UserPromptSubmit:0:0"] != ours || len(after) != len(before)+2 {
		t.Errorf("handlers %v, were %v", after, before)
	}
	// Up to the end of the person's Stop group only the two values
	// changed, byte for byte; what follows is asktray's.
	want := strings.Replace(strings.Replace(old, " --timeout 306 --data-dir", " --data-dir", 1), `"timeout": 306,`, `"timeout": 86406,`, 1)
	want, _, _ = strings.Cut(want, `"/opt/stop.sh" } ] }`)
	if !strings.HasPrefix(string(first), want+`"/opt/stop.sh" } ] },`) {
		t.Errorf("the rewrite changed more than asktray's values:\n%s\nwant it to begin:\n%s", first, want)
	}

	// Another deadline: the same entry, nothing written.
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: "/opt/asktray/bin/asktray"}
	for _, d := range []time.Duration{10 * time.Minute, 2 * time.Hour} {
		h2, err := BuildHooks("codex", sys, "/data", d)
		if err != nil {
			t.Fatal(err)
		}
		if out := run(t, func(b *bytes.Buffer) error { return h2.Write(b) }); !strings.Contains(out, "nothing to change") {
			t.Errorf("deadline %v rewrote the file:\n%s", d, out)
		}
		if b, _ := os.ReadFile(h.Path); !bytes.Equal(b, first) {
			t.Errorf("deadline %v changed the bytes:\n%s", d, b)
		}
	}
}

// TestHooks_FreshEntriesSameForEveryDeadline: written into an empty file, the
// entries are the same bytes whatever the person's deadline, for every agent.
func TestHooks_FreshEntriesSameForEveryDeadline(t *testing.T) {
	for _, agent := range HookAgents() {
		var first []byte
		for _, d := range []time.Duration{time.Minute, 5 * time.Minute, 24 * time.Hour} {
			home := t.TempDir()
			sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: "/usr/bin/asktray"}
			h, err := BuildHooks(agent, sys, "/data", d)
			if err != nil {
				t.Fatal(err)
			}
			run(t, func(b *bytes.Buffer) error { return h.Write(b) })
			b, err := os.ReadFile(h.Path)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%s: deadline %v wrote\n%s\nnot\n%s", agent, d, b, first)
			}
		}
		// Copilot CLI's entries name their event (its payloads of three
		// events do not), and Cline's its fixed limit on a hook's run
		// (hook.Spec.HookLimit), which are no settings.
		sp, _ := hook.Lookup(hook.Agent(agent))
		if sp.HookLimit == 0 && strings.Contains(string(first), "--timeout") || agent != "copilot-cli" && strings.Contains(string(first), "--event") {
			t.Errorf("%s: a setting in the command line:\n%s", agent, first)
		}
	}
}

// TestHooks_AskTrayInAnotherMatcherGroup: an asktray handler the person put in
// a group with another matcher cannot serve as the entry for every tool; it
// goes and asktray's own group is added, the person's handler in that group
// staying where it was.
func TestHooks_AskTrayInAnotherMatcherGroup(t *testing.T) {
	h := hooksFor(t, "codex", t.TempDir(), nil)
	old := `{"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/relay.sh"}, {"type": "command", "command": "/usr/bin/asktray hook codex"}]}]}}`
	if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	b, _ := os.ReadFile(h.Path)
	keys := codexHookKeys(t, b)
	if keys["PermissionRequest:0:0"] != `{"type":"command","command":"/opt/relay.sh"}` || keys["PermissionRequest:0:1"] != "" ||
		!strings.Contains(keys["PermissionRequest:1:0"], "/opt/asktray/bin/asktray hook codex --data-dir /data") {
		t.Errorf("%v\n%s", keys, b)
	}
}
