//go:build linux

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/policy"
)

// TestCLI_RulesAdd: 'asktray rules add' makes a standing rule, scoped to a
// remote host with --host (issue 36), which 'asktray rules' then shows under
// HOST; a bad host or match is refused naming the field, nothing added. A
// deny rule needs nothing more, as it only narrows; an allow rule from an
// agent's shell (no terminal) is refused and not added, and on the
// person's terminal with the login password it is added.
func TestCLI_RulesAdd(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir)
	rules := func() []policy.Rule {
		t.Helper()
		var rs []policy.Rule
		if r := run(t, dir, "rules", "--json"); json.Unmarshal([]byte(r.stdout), &rs) != nil {
			t.Fatalf("rules --json: %+v", r)
		}
		return rs
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--action", "*:Bash", "--host", strings.Repeat("h", policy.MaxPattern+1)}, "host: at most"},
		{[]string{"--action", "*:Bash", "--match", "regex"}, "--match"},
		{[]string{"--host", "build-01"}, "action"},
		{[]string{"--action", "*:Bash", "--decision", "maybe"}, "decision"},
	} {
		r := run(t, dir, append([]string{"rules", "add"}, c.args...)...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("rules add %q: exit %d, stderr %q; want a usage error naming %s", c.args, r.code, r.stderr, c.want)
		}
	}
	if rs := rules(); len(rs) != 0 {
		t.Fatalf("a refused rule was added: %+v", rs)
	}

	r := run(t, dir, "rules", "add", "--action", "*:Bash", "--match", "prefix", "--pattern", "rm -rf", "--host", "build-01", "--note", "not on the build box")
	if r.code != 0 || !strings.Contains(r.stdout, "Added rule") || !strings.Contains(r.stdout, "on build-01") {
		t.Fatalf("rules add a deny rule: %+v", r)
	}
	rs := rules()
	if len(rs) != 1 || rs[0].Host != "build-01" || rs[0].Decision != policy.Deny || rs[0].Match != policy.MatchPrefix ||
		rs[0].Pattern != "rm -rf" || rs[0].Scope != policy.ScopeAlways || rs[0].HighRisk {
		t.Fatalf("rules after add: %+v", rs)
	}
	if r := run(t, dir, "rules"); !strings.Contains(r.stdout, "HOST") || !strings.Contains(r.stdout, "build-01") {
		t.Fatalf("rules does not show the host:\n%s", r.stdout)
	}

	// An allow rule from an agent's shell: refused, not added.
	r = run(t, dir, "rules", "add", "--action", "*:Bash", "--decision", "allow")
	if r.code == 0 || !strings.Contains(r.stderr, "refused") || !strings.Contains(r.stderr, "not added") {
		t.Fatalf("rules add allow without a terminal: %+v", r)
	}
	if rs := rules(); len(rs) != 1 {
		t.Fatalf("an allow rule was added without the person: %+v", rs)
	}

	// The person's terminal and password.
	p := startPTY(t, dir, []string{armDelayEnv + "=0"}, "rules", "add", "--action", "*:Bash", "--decision", "allow",
		"--match", "prefix", "--pattern", "npm test", "--host", "agent@localhost")
	p.expect("answers yes for you")
	p.expect("ready: ")
	p.send(testPassword + "\r")
	if code, out := p.wait(); code != 0 || !strings.Contains(out, "Added rule") || strings.Contains(out, testPassword) {
		t.Fatalf("rules add allow on the person's terminal: exit %d\n%s", code, out)
	}
	if rs := rules(); len(rs) != 2 || rs[1].Decision != policy.Allow || rs[1].Host != "agent@localhost" {
		t.Fatalf("rules after the person's add: %+v", rs)
	}
}
