package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the doctor is below the front ends and reads the app only
// through what they hand it.
func TestImports(t *testing.T) {
	t.Parallel()
	const mod = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", mod+"app/clientsetup", mod+"app/datadir", mod+"app/hook", mod+"app/procfs", mod+"app/ellipsis", mod+"app/atomicfile",
		"github.com/tailscale/hujson", "github.com/pelletier/go-toml/v2", "golang.org/x/sys")
}

const (
	tokNow = "1111111111111111111111111111111111111111111111111111111111111111"
	tokOld = "2222222222222222222222222222222222222222222222222222222222222222"
	urlNow = "http://127.0.0.1:7931/mcp"
)

// scratch is a home dir with this asktray (a file standing for the binary)
// and its data dir.
type scratch struct {
	t    *testing.T
	home string
	env  Env
}

func newScratch(t *testing.T) *scratch {
	t.Helper()
	home := t.TempDir()
	exe := filepath.Join(home, "bin", "asktray")
	mkfile(t, exe, "#!/bin/sh\n")
	mkfile(t, filepath.Join(home, ".local", "bin", "claude"), "#!/bin/sh\n") // Claude Code's native install
	vars := map[string]string{}
	sys := clientsetup.Sys{GOOS: runtime.GOOS, Home: home, Getenv: func(k string) string { return vars[k] }, Exe: exe}
	data := filepath.Join(home, "data")
	cwd := filepath.Join(home, "project")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	return &scratch{t: t, home: home, env: Env{Sys: sys, DataDir: data, DefaultDataDir: data, Cwd: cwd,
		Server: clientsetup.Server{URL: urlNow, Token: tokNow, Running: true}, Deadline: 300 * time.Second}}
}

func mkfile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
}

// mcp writes client's entry as 'asktray config' would with sys, srv and dir.
func (s *scratch) mcp(client string, sys clientsetup.Sys, dir string, srv clientsetup.Server, useHTTP bool) string {
	s.t.Helper()
	tg, err := clientsetup.Build(client, sys, dir, srv, useHTTP)
	if err == nil {
		err = tg.Write(io.Discard)
	}
	if err != nil {
		s.t.Fatalf("%s: %v", client, err)
	}
	return tg.Path
}

// hooks writes agent's hooks as 'asktray config AGENT --hooks --write' would.
func (s *scratch) hooks(agent string, sys clientsetup.Sys, dir string) clientsetup.Hooks {
	s.t.Helper()
	h, err := clientsetup.BuildHooks(agent, sys, dir, time.Minute)
	if err == nil {
		err = h.Write(io.Discard)
	}
	if err != nil {
		s.t.Fatalf("%s: %v", agent, err)
	}
	return h
}

// trustCodex records Codex's trust of the asktray hooks as /hooks does.
func (s *scratch) trustCodex(h clientsetup.Hooks, hash func(clientsetup.FoundHook) string) {
	s.t.Helper()
	found, _, err := h.Installed()
	if err != nil {
		s.t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range found {
		b.WriteString("[hooks.state." + quoteTOML(h.Path+":"+hook.CodexEventName(f.Event)+":0:0") + "]\ntrusted_hash = " + quoteTOML(hash(f)) + "\n")
	}
	cfg := filepath.Join(filepath.Dir(h.Path), "config.toml")
	old, _ := os.ReadFile(cfg)
	base, _, _ := strings.Cut(string(old), "\n[hooks.state.") // an earlier trust goes
	mkfile(s.t, cfg, base+"\n"+b.String())
}

func quoteTOML(s string) string { b, _ := json.Marshal(s); return string(b) }

func (s *scratch) check() Report {
	s.t.Helper()
	return Check(context.Background(), s.env)
}

// problem returns the Problem line about file and key (a prefix of the key
// given), failing t when there is none.
func problem(t *testing.T, r Report, client, file, key string) Line {
	t.Helper()
	for _, l := range r.Problems() {
		if l.Client == client && l.File == file && strings.HasPrefix(l.Key, key) {
			return l
		}
	}
	t.Fatalf("no problem for %s %s %s in:\n%s", client, file, key, text(r))
	return Line{}
}

func text(r Report) string {
	var b strings.Builder
	_ = r.Write(&b)
	return b.String()
}

// TestGoodEntries: every client and agent set up as 'asktray config' writes
// it (Codex's hooks trusted) is fine, and the report is OK.
func TestGoodEntries(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	for _, c := range clientsetup.Clients() {
		s.mcp(c, s.env.Sys, s.env.DataDir, s.env.Server, c != "claude-desktop")
	}
	for _, a := range clientsetup.HookAgents() {
		h := s.hooks(a, s.env.Sys, s.env.DataDir)
		if a == string(hook.Codex) {
			s.trustCodex(h, codexHash)
		}
		if a == string(hook.Opencode) { // opencode asks only where a rule says so: one beside the MCP entry
			cfg := filepath.Join(filepath.Dir(filepath.Dir(h.Path)), "opencode.json")
			var doc map[string]any
			b, _ := os.ReadFile(cfg)
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			doc["permission"] = map[string]any{"bash": "ask"}
			b, _ = json.Marshal(doc)
			mkfile(t, cfg, string(b))
		}
		if a == string(hook.Kilo) {
			mkfile(t, filepath.Join(filepath.Dir(filepath.Dir(h.Path)), "kilo.json"), `{"permission": {"bash": "ask"}}`)
		}
	}
	r := s.check()
	if !r.OK() {
		t.Fatalf("not OK:\n%s", text(r))
	}
	for _, c := range clientsetup.Clients() {
		if !slices.ContainsFunc(r.Lines, func(l Line) bool { return l.Client == c && l.What == "MCP" && l.Status == Fine }) {
			t.Errorf("%s: no fine MCP line:\n%s", c, text(r))
		}
	}
	for _, a := range clientsetup.HookAgents() {
		for _, what := range []string{"hooks", "trust"} {
			if !slices.ContainsFunc(r.Lines, func(l Line) bool { return l.Client == a && l.What == what && l.Status == Fine }) {
				t.Errorf("%s: no fine %s line:\n%s", a, what, text(r))
			}
		}
	}
	if last := strings.TrimSpace(text(r)); !strings.HasSuffix(last, "Everything is fine.") {
		t.Errorf("last line: %q", last)
	}
}

// TestNothingSetUp: no entry anywhere is no problem of the entries, only of
// the app when it does not run.
func TestNothingSetUp(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	if r := s.check(); !r.OK() || slices.ContainsFunc(r.Lines, func(l Line) bool { return l.What != "app" && l.Status != Unused }) {
		t.Fatalf("nothing set up:\n%s", text(r))
	}
	s.env.Server.Running = false
	r := s.check()
	if p := r.Problems(); len(p) != 1 || p[0].What != "app" || p[0].File != filepath.Join(s.env.DataDir, "control.sock") {
		t.Fatalf("app down:\n%s", text(r))
	}
}

// TestStaleMCPEntries: for every client, an entry with another port, an old
// token, another binary or another data dir is a problem naming the file
// and the key.
func TestStaleMCPEntries(t *testing.T) {
	t.Parallel()
	other := func(s *scratch) clientsetup.Sys {
		o := s.env.Sys
		o.Exe = filepath.Join(s.home, "old", "asktray")
		return o
	}
	cases := []struct {
		name string
		http bool
		set  func(s *scratch, c string) string // writes the entry, returns the file
		key  string                            // after the entry's own key
		says string
	}{
		{"other port", true, func(s *scratch, c string) string {
			return s.mcp(c, s.env.Sys, s.env.DataDir, clientsetup.Server{URL: "http://127.0.0.1:7000/mcp", Token: tokNow}, true)
		}, "url", "Asktray serves MCP at " + urlNow},
		{"old token", true, func(s *scratch, c string) string {
			return s.mcp(c, s.env.Sys, s.env.DataDir, clientsetup.Server{URL: urlNow, Token: tokOld}, true)
		}, "headers.Authorization", "old token"},
		{"other binary", false, func(s *scratch, c string) string {
			return s.mcp(c, other(s), s.env.DataDir, s.env.Server, false)
		}, "command", "does not exist"},
		{"other data dir", false, func(s *scratch, c string) string {
			return s.mcp(c, s.env.Sys, "/elsewhere", s.env.Server, false)
		}, "command", "uses the data dir /elsewhere"},
	}
	for _, tc := range cases {
		for _, c := range clientsetup.Clients() {
			if tc.http && c == "claude-desktop" {
				continue
			}
			t.Run(tc.name+"/"+c, func(t *testing.T) {
				t.Parallel()
				s := newScratch(t)
				file := tc.set(s, c)
				r := s.check()
				l := problem(t, r, c, file, "")
				key := tc.key
				if c == "codex" && key == "headers.Authorization" {
					key = "http_headers.Authorization"
				}
				if c == "windsurf" && key == "url" {
					key = "serverUrl"
				}
				if !strings.HasSuffix(l.Key, "."+key) || !strings.Contains(l.Text, tc.says) || !strings.Contains(l.Text, "asktray config "+c+" --write") {
					t.Fatalf("%s %s: %+v", tc.name, c, l)
				}
				if len(r.Problems()) != 1 {
					t.Errorf("more than the one problem:\n%s", text(r))
				}
			})
		}
	}
}

// TestMissingKeys: an entry without its token, and hooks with an event
// missing, are problems naming the key.
func TestMissingKeys(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	path := s.mcp("cursor", s.env.Sys, s.env.DataDir, s.env.Server, true)
	mkfile(t, path, `{"mcpServers": {"asktray": {"url": "`+urlNow+`"}}}`)
	if l := problem(t, s.check(), "cursor", path, "mcpServers.asktray.headers.Authorization"); !strings.Contains(l.Text, "is missing") {
		t.Fatalf("no token: %+v", l)
	}
	mkfile(t, path, `{"mcpServers": {"asktray": {"url": "`+urlNow+`", "headers": {"authorization": "Bearer `+tokNow+`"}}}}`)
	if r := s.check(); !r.OK() {
		t.Fatalf("the person's spelling of the header: %s", text(r))
	}
	for _, a := range clientsetup.HookAgents() {
		if sp, _ := hook.Lookup(hook.Agent(a)); sp.Settings.Plugin != nil {
			continue // one line of its plugin serves every event
		}
		h := s.hooks(a, s.env.Sys, s.env.DataDir)
		b, _ := os.ReadFile(h.Path)
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		last := h.Entries()[len(h.Entries())-1].Event
		evs := doc["hooks"].(map[string]any)
		if len(evs) == 1 { // Codex has one event: take away its handler's group instead
			evs[last] = []any{}
		} else {
			delete(evs, last)
		}
		b, _ = json.Marshal(doc)
		mkfile(t, h.Path, string(b))
		r := s.check()
		if len(evs) == 1 && len(evs[last].([]any)) == 0 {
			if !slices.ContainsFunc(r.Lines, func(l Line) bool { return l.Client == a && l.What == "hooks" && l.Status == Unused }) {
				t.Errorf("%s with no hook left: %s", a, text(r))
			}
			continue
		}
		if l := problem(t, r, a, h.Path, "hooks."+last); !strings.Contains(l.Text, "has no asktray hook") || !strings.Contains(l.Text, "--hooks --write") {
			t.Errorf("%s: %+v", a, l)
		}
	}
}

// TestStaleHooks: hooks of another binary, another data dir or a timeout
// shorter than the deadline are problems naming the handler's key.
func TestStaleHooks(t *testing.T) {
	t.Parallel()
	for _, a := range clientsetup.HookAgents() {
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			s := newScratch(t)
			old := s.env.Sys
			old.Exe = filepath.Join(s.home, "old", "asktray")
			h := s.hooks(a, old, s.env.DataDir)
			l := problem(t, s.check(), a, h.Path, "hooks.")
			if !strings.HasSuffix(l.Key, "."+settingsOf(h.Agent).CommandKey) || !strings.Contains(l.Text, old.Exe+", which does not exist") {
				t.Fatalf("other binary: %+v", l)
			}
			h = s.hooks(a, s.env.Sys, "/elsewhere")
			if l := problem(t, s.check(), a, h.Path, "hooks."); !strings.Contains(l.Text, "uses the data dir /elsewhere, not "+s.env.DataDir) {
				t.Fatalf("other data dir: %+v", l)
			}
			h = s.hooks(a, s.env.Sys, s.env.DataDir)
			b, _ := os.ReadFile(h.Path)
			if h.Agent == hook.CopilotCLI {
				mkfile(t, h.Path, strings.Replace(string(b), `"powershell": "& '`+s.env.Sys.Exe, `"powershell": "& 'C:\\old\\asktray.exe`, 1))
				if l := problem(t, s.check(), a, h.Path, "hooks."); !strings.HasSuffix(l.Key, ".powershell") || !strings.Contains(l.Text, "runs it on Windows") {
					t.Fatalf("stale powershell: %+v", l)
				}
			}
			if sp, _ := hook.Lookup(h.Agent); sp.HookLimit > 0 {
				return // its entry's timeout is the agent's own bound (Cline's 120 s), which no deadline changes
			}
			tk := settingsOf(h.Agent).TimeoutKey
			mkfile(t, h.Path, strings.ReplaceAll(string(b), `"`+tk+`": 86406`, `"`+tk+`": 30`))
			if l := problem(t, s.check(), a, h.Path, "hooks."); !strings.HasSuffix(l.Key, "."+tk) || !strings.Contains(l.Text, "is 30 s, shorter than your question deadline (300 s)") {
				t.Fatalf("short timeout: %+v", l)
			}
		})
	}
}

// TestProbe: with a probe, an HTTP entry is fine only when the app answers
// at its URL and takes its token; the request is the guard's 415 probe.
func TestProbe(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	path := s.mcp("codex", s.env.Sys, s.env.DataDir, s.env.Server, true)
	var gotURL, gotAuth string
	code, err := 415, error(nil)
	s.env.Probe = func(_ context.Context, u, auth string) (int, error) { gotURL, gotAuth = u, auth; return code, err }
	if r := s.check(); !r.OK() || !hasLine(r, "codex", Fine, "Asktray answers there and takes the token") || gotURL != urlNow || gotAuth != "Bearer "+tokNow {
		t.Fatalf("415 from %s %s: %s", gotURL, gotAuth, text(r))
	}
	code = 401
	if l := problem(t, s.check(), "codex", path, "mcp_servers.asktray"); !strings.Contains(l.Text, "refuses this entry's token (401)") {
		t.Fatalf("401: %+v", l)
	}
	err = errors.New("connection refused")
	if l := problem(t, s.check(), "codex", path, "mcp_servers.asktray"); !strings.Contains(l.Text, "nothing answers at "+urlNow+" (connection refused)") {
		t.Fatalf("down: %+v", l)
	}
	s.env.Server.Running = false
	gotURL = ""
	s.check()
	if gotURL != "" {
		t.Fatal("probed with no app running")
	}
}

// TestHTTPProbe: the probe reaches the guard with the header and a body
// that is not JSON, so the app opens no session.
func TestHTTPProbe(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+tokNow {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") == "application/json" {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		w.WriteHeader(http.StatusUnsupportedMediaType)
	}))
	defer srv.Close()
	for auth, want := range map[string]int{"Bearer " + tokNow: 415, "Bearer " + tokOld: 401} {
		if got, err := HTTPProbe(context.Background(), srv.URL+"/mcp", auth); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", auth[:10], got, err, want)
		}
	}
}

// TestHookBinary: with the hook-only binary beside asktray, hooks that run
// asktray itself are a problem (set-up's rerun fixes it), and hooks that
// run the hook-only binary are fine, named so.
func TestHookBinary(t *testing.T) {
	t.Parallel()
	for _, a := range clientsetup.HookAgents() {
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			s := newScratch(t)
			mkfile(t, filepath.Join(filepath.Dir(s.env.Sys.Exe), clientsetup.HookName), "#!/bin/sh\n")
			desktop := s.env.Sys
			s.env.Sys.HookExe = clientsetup.HookBeside(s.env.Sys.Exe)
			if s.env.Sys.HookExe == "" {
				t.Fatal("HookBeside found no hook binary")
			}
			h := s.hooks(a, desktop, s.env.DataDir)
			if l := problem(t, s.check(), a, h.Path, "hooks."); !strings.Contains(l.Text, "runs the desktop binary "+desktop.Exe+" for every hook call") {
				t.Fatalf("hooks run the desktop binary: %+v", l)
			}
			s.hooks(a, s.env.Sys, s.env.DataDir)
			if r := s.check(); !hasLine(r, a, Fine, "hook-only binary ("+s.env.Sys.HookExe+")") {
				t.Fatalf("hooks run the hook binary:\n%s", text(r))
			}
		})
	}
}
