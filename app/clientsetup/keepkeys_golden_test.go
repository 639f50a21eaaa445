package clientsetup

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/keep")

// keepCases are files that hold the person's own keys inside the asktray
// entry (and around it), one or more per client: testdata/keep/NAME.in is
// the file before, NAME.http.golden and NAME.stdio.golden the file after
// 'asktray config CLIENT --write' and '--write --stdio'. Claude Desktop
// takes stdio only.
var keepCases = []struct {
	name, client string
	http         bool
}{
	{"claude-code", "claude-code", true},
	{"claude-desktop", "claude-desktop", false},
	{"cursor", "cursor", true},
	{"vscode", "vscode", true},
	{"codex", "codex", true},
	{"codex-env", "codex", true},   // the token from the environment; the person's headers in a sub-table
	{"codex-stdio", "codex", true}, // a stdio table: its env and cwd go with HTTP, which Codex refuses them for
	{"windsurf", "windsurf", true},
	{"gemini-cli", "gemini-cli", true},
	{"zed", "zed", true},
	{"opencode", "opencode", true},
	{"opencode-v1", "opencode", true},
	{"opencode-both", "opencode", true},
	{"copilot-cli", "copilot-cli", true},
}

// TestWrite_KeepsThePersonsKeysGolden is finding 11 of issue 25 for every
// client: a rewrite changes only the keys asktray owns (the URL, the
// Authorization header, the command), in their places, and keeps every other
// byte of the person's file, their keys inside the asktray entry and their
// other headers included; a second run leaves the file byte for byte as it
// is. Run with -update to rewrite the golden files, then read the diff.
func TestWrite_KeepsThePersonsKeysGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range keepCases {
		seen[tc.client] = true
		in, err := os.ReadFile(filepath.Join("testdata", "keep", tc.name+".in"))
		if err != nil {
			t.Fatal(err)
		}
		for _, useHTTP := range []bool{true, false} {
			if useHTTP && !tc.http {
				continue
			}
			mode := map[bool]string{true: "http", false: "stdio"}[useHTTP]
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				got := writeGolden(t, tc.client, in, useHTTP)
				golden := filepath.Join("testdata", "keep", tc.name+"."+mode+".golden")
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s after the write:\n%s\nwant (%s):\n%s", tc.client, got, golden, want)
				}
				if bytes.Contains(got, []byte("Bearer old")) || bytes.Contains(got, []byte("127.0.0.1:1/")) {
					t.Errorf("the old token or URL is still there:\n%s", got)
				}
			})
		}
	}
	for _, c := range Clients() {
		if !seen[c] {
			t.Errorf("no golden case for %s", c)
		}
	}
}

// writeGolden writes client's setup (HTTP, or stdio) into a home whose
// config file holds in, checks that a second run changes nothing, and
// returns the file after the first.
func writeGolden(t *testing.T, client string, in []byte, useHTTP bool) []byte {
	t.Helper()
	home := t.TempDir()
	sys := Sys{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }, Exe: testExe}
	srv := Server{URL: testURL, Token: testToken, Running: true}
	tg, err := Build(client, sys, testDataDir, srv, useHTTP)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(tg.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tg.Path, in, 0o600); err != nil {
		t.Fatal(err)
	}
	out := run(t, func(b *bytes.Buffer) error { return tg.Write(b) })
	if !strings.Contains(out, "The previous file is in ") {
		t.Errorf("%s: no backup named:\n%s", client, out)
	}
	got, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	again := run(t, func(b *bytes.Buffer) error { return tg.Write(b) })
	after, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again, "nothing to change") || !bytes.Equal(after, got) {
		t.Errorf("%s: a second run changed the file:\n%s\n%s", client, again, after)
	}
	return got
}
