package realclients

import (
	"bytes"
	"strings"
	"testing"
)

// TestRealClients is finding 11 of issue 25: each client, at its pinned
// version, connects to what 'asktray config CLIENT --write' writes and, where
// its listing shows tools, lists asktray's 11; over HTTP and stdio; after a
// first write, after a rewrite of a file of the person's (an older entry, the
// old URL and token, their own keys inside it), after switching that file to
// stdio, and after switching a stdio file of the person's (with their env and
// cwd) to HTTP. The person's keys stay, and do what they say (Codex's
// disabled_tools hides ask_form). A rerun with nothing changed leaves the
// file byte for byte as it was.
func TestRealClients(t *testing.T) {
	install := requireClients(t)
	a := startApp(t)
	for _, c := range realClients {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.checkVersion(t, newScratch(t, install, a))

			s := newScratch(t, install, a)
			if c.trust != nil {
				c.trust(t, s)
			}
			s.config(t, c.name)
			c.expect(t, s, "first write, HTTP", asktrayTools)
			c.rerunChangesNothing(t, s)

			s = newScratch(t, install, a)
			if c.trust != nil {
				c.trust(t, s)
			}
			s.config(t, c.name, "--stdio")
			c.expect(t, s, "first write, stdio", asktrayTools)
			c.rerunChangesNothing(t, s, "--stdio")

			s = newScratch(t, install, a)
			if c.trust != nil {
				c.trust(t, s)
			}
			s.put(t, c.person, c.file)
			s.config(t, c.name)
			tools := c.personTools
			if tools == nil {
				tools = asktrayTools
			}
			c.expect(t, s, "the person's file rewritten, HTTP", tools)
			c.checkFile(t, s, "the person's file rewritten, HTTP", c.keptHTTP)
			c.rerunChangesNothing(t, s)

			s.config(t, c.name, "--stdio")
			c.expect(t, s, "the person's file switched to stdio", tools)
			c.checkFile(t, s, "the person's file switched to stdio", c.keptStdio)
			c.rerunChangesNothing(t, s, "--stdio")

			s = newScratch(t, install, a)
			if c.trust != nil {
				c.trust(t, s)
			}
			s.put(t, c.personStdio, c.file)
			s.config(t, c.name)
			c.expect(t, s, "the person's stdio file switched to HTTP", asktrayTools)
			c.checkFile(t, s, "the person's stdio file switched to HTTP", nil)
			c.rerunChangesNothing(t, s)
		})
	}
}

// checkVersion fails t unless c's command says it is the pinned version.
func (c realClient) checkVersion(t *testing.T, s *scratch) {
	t.Helper()
	want := pinned(t, c.pkg)
	r := s.run(t, limit, nil, c.bin, "--version")
	if r.code != 0 || want == "" || !strings.Contains(r.stdout, want) {
		t.Fatalf("%s --version: exit %d, %q; package.json pins %s %q", c.bin, r.code, r.stdout+r.stderr, c.pkg, want)
	}
	t.Logf("%s %s", c.pkg, want)
}

// rerunChangesNothing runs the same 'asktray config' again and fails t unless
// it says so and the file is byte for byte what it was.
func (c realClient) rerunChangesNothing(t *testing.T, s *scratch, flags ...string) {
	t.Helper()
	before := s.file(t, c.file)
	out := s.config(t, c.name, flags...)
	if after := s.file(t, c.file); !strings.Contains(out, "nothing to change") || !bytes.Equal(before, after) {
		t.Errorf("%s %v: a rerun changed the file:\n%s\nbefore:\n%s\nafter:\n%s", c.name, flags, out, before, after)
	}
}

// TestGeminiTrustAndTrailingCommas: what the output of 'config gemini-cli'
// says is what Gemini CLI does. In a folder not trusted it keeps the server
// off; a settings file with a trailing comma it refuses whole, so asktray
// adds none and names the line of the person's, and once that comma is gone
// Gemini CLI connects.
func TestGeminiTrustAndTrailingCommas(t *testing.T) {
	install := requireClients(t)
	a := startApp(t)
	gemini := realClients[2]
	s := newScratch(t, install, a)
	out := s.config(t, "gemini-cli")
	if !strings.Contains(out, "keeps MCP servers off") {
		t.Errorf("the output does not say that Gemini CLI keeps MCP servers off in an untrusted folder:\n%s", out)
	}
	r := s.run(t, limit, nil, "gemini", "mcp", "list")
	if line := lineOf(r.stdout+r.stderr, "asktray:"); !strings.Contains(line, "Disabled") || !strings.Contains(r.stdout+r.stderr, "untrusted") {
		t.Errorf("gemini mcp list in an untrusted folder:\n%s\n%s", r.stdout, r.stderr)
	}
	gemini.trust(t, s)
	gemini.expect(t, s, "the folder trusted", asktrayTools)

	s = newScratch(t, install, a)
	gemini.trust(t, s)
	s.write(t, gemini.file, "{\n  \"ui\": {\"theme\": \"GitHub\",},\n  \"general\": {}\n}\n")
	out = s.config(t, "gemini-cli")
	if !strings.Contains(out, ".gemini/settings.json has a trailing comma (line 2)") {
		t.Errorf("the output does not name the trailing comma:\n%s", out)
	}
	r = s.run(t, limit, nil, "gemini", "mcp", "list")
	if !strings.Contains(r.stdout+r.stderr, "settings.json") || r.code == 0 && strings.Contains(lineOf(r.stdout+r.stderr, "asktray:"), "- Connected") {
		t.Errorf("Gemini CLI read a settings file with a trailing comma:\n%s\n%s", r.stdout, r.stderr)
	}
	s.write(t, gemini.file, strings.Replace(string(s.file(t, gemini.file)), `"GitHub",}`, `"GitHub"}`, 1))
	gemini.expect(t, s, "the person's trailing comma removed", asktrayTools)
}
