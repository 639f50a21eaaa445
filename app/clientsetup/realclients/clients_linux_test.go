package realclients

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// asktrayTools are the tools every client must list where its command shows
// tools.
var asktrayTools = []string{"ask_choice", "ask_confirm", "ask_form", "ask_multi_select", "ask_text", "ask_user",
	"cancel_question", "get_answer", "notify", "permission_prompt", "request_approval"}

// listing is what a client's own listing command said about the asktray
// server: connected or not, its tools where the command shows them (nil
// when it does not), and the output to show when a check fails.
type listing struct {
	connected bool
	tools     []string
	count     int // a tool count, where the command shows only that
	out       string
}

// realClient is one client under test.
type realClient struct {
	name, pkg, bin string // 'asktray config NAME', its npm package and command
	file           string // its config file under HOME
	person         string // testdata: a file of the person's, with an older asktray entry and their own keys
	personStdio    string // testdata: the same with an older stdio entry and the person's stdio keys
	// keptHTTP must be in the file after the person's file is rewritten for
	// HTTP, keptStdio after it is then rewritten for stdio; absent never.
	keptHTTP, keptStdio, absent []string
	// personTools are the tools the listing shows after the rewrite of the
	// person's file (their own keys may hide some); nil: all of them.
	personTools []string
	trust       func(t *testing.T, s *scratch) // sets up the client's own trust of the project, if it has one
	list        func(t *testing.T, s *scratch) listing
}

const limit = 90 * time.Second

var realClients = []realClient{
	{
		name: "claude-code", pkg: "@anthropic-ai/claude-code", bin: "claude", file: ".claude.json", person: "claude.json", personStdio: "claude-stdio.json",
		keptHTTP:  []string{`"numStartups": 12`, `"closed"`, `"X-Person": "kept"`, `"/home/ada/p"`},
		keptStdio: []string{`"numStartups": 12`, `"closed"`, `"/home/ada/p"`},
		list: func(t *testing.T, s *scratch) listing {
			r := s.run(t, limit, nil, "claude", "mcp", "list")
			line := lineOf(r.stdout, "asktray:")
			return listing{connected: strings.Contains(line, "Connected") && !strings.Contains(line, "Failed"), out: r.stdout + r.stderr}
		},
	},
	{
		name: "codex", pkg: "@openai/codex", bin: "codex", file: ".codex/config.toml", person: "codex.toml", personStdio: "codex-stdio.toml",
		keptHTTP:    []string{`model = "gpt-5"`, `"X-Person" = "kept"`, `env_http_headers = { "X-Home" = "HOME" }`, "startup_timeout_sec = 30", `disabled_tools = ["ask_form"]  # not for this agent`, "tool_timeout_sec = 900", "[mcp_servers.asktray.tools.notify]\napproval_mode = \"approve\"", "[profiles.fast]"},
		keptStdio:   []string{"startup_timeout_sec = 30", `disabled_tools = ["ask_form"]`, "tool_timeout_sec = 900", "[mcp_servers.asktray.tools.notify]"},
		personTools: slices.DeleteFunc(slices.Clone(asktrayTools), func(s string) bool { return s == "ask_form" }),
		list:        listCodex,
	},
	{
		name: "gemini-cli", pkg: "@google/gemini-cli", bin: "gemini", file: ".gemini/settings.json", person: "gemini.json", personStdio: "gemini-stdio.json",
		keptHTTP:  []string{"// Gemini CLI settings, with comments", `"trust": true`, `"excludeTools": ["notify"]`, `"timeout": 5000`, `"X-Person": "kept"`, `"description": "questions to me"`, `"type": "http"`},
		keptStdio: []string{"// Gemini CLI settings, with comments", `"trust": true`, `"excludeTools": ["notify"]`, `"timeout": 5000`},
		absent:    []string{"httpUrl"},
		trust: func(t *testing.T, s *scratch) {
			t.Helper()
			s.write(t, ".gemini/trustedFolders.json", `{"`+s.proj+`": "TRUST_FOLDER"}`)
		},
		list: func(t *testing.T, s *scratch) listing {
			r := s.run(t, limit, nil, "gemini", "mcp", "list")
			line := lineOf(r.stdout+r.stderr, "asktray:")
			return listing{connected: strings.Contains(line, "- Connected"), out: r.stdout + r.stderr}
		},
	},
	{
		name: "opencode", pkg: "opencode-ai", bin: "opencode", file: ".config/opencode/opencode.json", person: "opencode.json", personStdio: "opencode-stdio.json",
		keptHTTP:  []string{"// moved up one level", `"timeout": 9000`, `"enabled": true`, `"X-Person": "kept"`},
		keptStdio: []string{"// moved up one level", `"timeout": 9000`, `"enabled": true`, `"type": "local"`},
		absent:    []string{`"servers"`},
		list: func(t *testing.T, s *scratch) listing {
			r := s.run(t, limit, nil, "opencode", "mcp", "list")
			line := lineOf(r.stdout, "asktray")
			return listing{connected: strings.Contains(line, "connected") && !strings.Contains(line, "disconnected"), out: r.stdout + r.stderr}
		},
	},
	{
		name: "copilot-cli", pkg: "@github/copilot", bin: "copilot", file: ".copilot/mcp-config.json", person: "copilot.json", personStdio: "copilot-stdio.json",
		keptHTTP:  []string{"// my MCP servers, with comments and trailing commas", `"tools": ["*"],},`, `"X-Person": "kept",`, `"timeout": 700000,`},
		keptStdio: []string{"// my MCP servers, with comments and trailing commas", `"timeout": 700000,`, `"type": "local"`},
		list:      listCopilot,
	},
}

// lineOf returns the first line of out that contains what.
func lineOf(out, what string) string {
	for line := range strings.Lines(out) {
		if strings.Contains(line, what) {
			return line
		}
	}
	return ""
}

// listCodex asks Codex's app server for its MCP servers' status
// (mcpServerStatus/list), which lists each connected server's tools.
func listCodex(t *testing.T, s *scratch) listing {
	t.Helper()
	requests := []string{
		`{"id":1,"method":"initialize","params":{"clientInfo":{"name":"asktray-realclients","version":"1"}}}`,
		`{"method":"initialized"}`,
		`{"id":2,"method":"mcpServerStatus/list","params":{}}`,
	}
	lines := s.stream(t, nil, requests, "codex", []string{"app-server"}, func(line string) bool {
		return strings.HasPrefix(line, `{"id":2,`)
	})
	l := listing{out: strings.Join(lines, "\n")}
	var resp struct {
		Result struct {
			Data []struct {
				Name  string
				Tools map[string]json.RawMessage
			}
		}
	}
	if len(lines) == 0 || json.Unmarshal([]byte(lines[len(lines)-1]), &resp) != nil {
		return l
	}
	for _, d := range resp.Result.Data {
		if d.Name == "asktray" {
			for name := range d.Tools {
				l.tools = append(l.tools, name)
			}
			slices.Sort(l.tools)
			l.connected = len(l.tools) > 0
		}
	}
	return l
}

// listCopilot starts a Copilot CLI prompt session (offline, its model a
// closed loopback port, so nothing leaves the machine) and reads its JSON
// events until the asktray server is connected and its tools are loaded.
func listCopilot(t *testing.T, s *scratch) listing {
	t.Helper()
	env := []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:9/v1", "COPILOT_MODEL=gpt-4o"}
	var l listing
	var connected, loaded bool
	lines := s.stream(t, env, nil, "copilot", []string{"-p", "hi", "--output-format", "json", "--allow-all-tools"}, func(line string) bool {
		var ev struct {
			Type string
			Data struct {
				ServerName string
				Status     string
				ToolCount  int
			}
		}
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Data.ServerName != "asktray" {
			return false
		}
		switch ev.Type {
		case "session.mcp_server_status_changed":
			connected = ev.Data.Status == "connected"
			return ev.Data.Status == "failed"
		case "session.mcp_server_tools_loaded":
			loaded, l.count = true, ev.Data.ToolCount
		}
		return connected && loaded
	})
	l.connected, l.out = connected && loaded, strings.Join(lines, "\n")
	return l
}

// stream runs bin with args in s, writes the lines to its stdin (which stays
// open), and reads its stdout line by line until done says so, the command
// ends or limit passes; then it kills the command's process group. It
// returns the lines read.
func (s *scratch) stream(t *testing.T, env, stdin []string, bin string, args []string, done func(string) bool) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := s.command(ctx, bin, args...)
	cmd.Env = append(cmd.Env, env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, line := range stdin {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if done(sc.Text()) {
			break
		}
	}
	cancel() // kills the process group
	_ = in.Close()
	_ = cmd.Wait()
	if t.Failed() || len(lines) == 0 {
		t.Logf("%s %v stderr:\n%s", bin, args, stderr.String())
	}
	return lines
}

// write writes content to rel under s's HOME.
func (s *scratch) write(t *testing.T, rel, content string) {
	t.Helper()
	s.putBytes(t, rel, []byte(content))
}

// expect runs c's listing in s and fails t unless the asktray server is
// connected and, where the listing shows tools, they are tools.
func (c realClient) expect(t *testing.T, s *scratch, when string, tools []string) {
	t.Helper()
	l := c.list(t, s)
	switch {
	case !l.connected:
		t.Errorf("%s, %s: asktray is not connected:\n%s\n%s:\n%s", c.name, when, l.out, c.file, s.file(t, c.file))
	case l.tools != nil && !slices.Equal(l.tools, tools):
		t.Errorf("%s, %s: tools %v, want %v", c.name, when, l.tools, tools)
	case l.count != 0 && l.count != len(asktrayTools):
		t.Errorf("%s, %s: %d tools loaded, want %d", c.name, when, l.count, len(asktrayTools))
	case l.tools != nil:
		t.Logf("%s, %s: connected; tools %v", c.name, when, l.tools)
	case l.count != 0:
		t.Logf("%s, %s: connected; %d tools loaded", c.name, when, l.count)
	default:
		t.Logf("%s, %s: connected (the listing shows no tools)", c.name, when)
	}
}

// checkFile fails t unless c's file in s holds every string of kept and
// none of absent, the old URL or the old token.
func (c realClient) checkFile(t *testing.T, s *scratch, when string, kept []string) {
	t.Helper()
	b := string(s.file(t, c.file))
	for _, k := range kept {
		if !strings.Contains(b, k) {
			t.Errorf("%s, %s: %q is gone from %s:\n%s", c.name, when, k, filepath.Base(c.file), b)
		}
	}
	for _, a := range append([]string{"Bearer old", "127.0.0.1:1/"}, c.absent...) {
		if strings.Contains(b, a) {
			t.Errorf("%s, %s: %q is still in %s:\n%s", c.name, when, a, filepath.Base(c.file), b)
		}
	}
}
