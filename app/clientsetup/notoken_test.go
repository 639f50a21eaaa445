package clientsetup

import (
	"bytes"
	"strings"
	"testing"
)

// TestNoCommandCarriesTheToken (issue 33 item 7): no command line printed
// for any client, in either mode, holds the token, since another local user
// reads a running command's arguments in /proc/PID/cmdline; the token is
// printed only inside the config entry, on its Authorization line. On
// f02af39 the first line 'asktray config claude-code' printed was
// 'claude mcp add … --header "Authorization: Bearer TOKEN"', and Gemini
// CLI's likewise.
func TestNoCommandCarriesTheToken(t *testing.T) {
	t.Parallel()
	const tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	sys := Sys{GOOS: "linux", Home: "/home/ada", Exe: "/opt/asktray/bin/asktray", Getenv: func(string) string { return "" }}
	for _, client := range Clients() {
		for _, useHTTP := range []bool{true, false} {
			srv := Server{URL: "http://127.0.0.1:7931/mcp", Token: tok}
			tg, err := Build(client, sys, "/home/ada/.local/share/asktray", srv, useHTTP)
			if err != nil {
				t.Fatalf("%s (http %v): %v", client, useHTTP, err)
			}
			if strings.Contains(tg.Command, tok) {
				t.Errorf("%s (http %v): the command carries the token: %s", client, useHTTP, tg.Command)
			}
			var out bytes.Buffer
			if err := tg.Print(&out); err != nil {
				t.Fatal(err)
			}
			for line := range strings.SplitSeq(out.String(), "\n") {
				if strings.Contains(line, tok) && !strings.Contains(line, "Authorization") {
					t.Errorf("%s (http %v): the token is printed outside the entry's Authorization: %q", client, useHTTP, line)
				}
				if strings.Contains(line, tok) && strings.Contains(line, "mcp add") {
					t.Errorf("%s (http %v): a command line with the token: %q", client, useHTTP, line)
				}
			}
		}
	}
}
