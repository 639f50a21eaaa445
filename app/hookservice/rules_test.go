package hookservice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// TestHook_RulesMatchTheCommand: through the hook endpoint, a prefix rule
// for "npm test" (in the project) allows npm test there, while "npm test &&
// rm -rf ~" is asked, graded high with the reason, with its input and
// working directory; in another directory the rule does not apply.
func TestHook_RulesMatchTheCommand(t *testing.T) {
	t.Parallel()
	e := newHookServer(t)
	if _, err := e.pol.Add(policy.Rule{Client: "copilot-cli", Action: hook.Tool + ":bash", Decision: policy.Allow, Scope: policy.ScopeAlways,
		Match: policy.MatchPrefix, Pattern: "npm test", Cwd: "/home/u/app"}); err != nil {
		t.Fatal(err)
	}
	bash := func(cmd, cwd string) hook.Payload {
		p := payload(t, hook.CopilotCLI, "permissionRequest")
		p.ToolInput, _ = json.Marshal(map[string]string{"command": cmd})
		p.Cwd = cwd
		return p
	}
	if rep := recv(t, e.call(bash("npm test -- --ci", "/home/u/app"), time.Minute)); rep.Behavior != hook.Allow {
		t.Fatalf("npm test: %+v", rep)
	}
	for _, c := range []struct{ cmd, cwd string }{
		{"npm test && rm -rf ~", "/home/u/app"},
		{"bash -c 'npm test; rm -rf ~'", "/home/u/app"},
		{"npm test $(rm -rf ~)", "/home/u/app"},
		{"npm test", "/home/u/other"},
	} {
		got := e.call(bash(c.cmd, c.cwd), time.Minute)
		q := e.nextAsked(t)
		var in struct{ Command string }
		if json.Unmarshal(q.Input, &in) != nil || in.Command != c.cmd || q.Cwd != c.cwd {
			t.Errorf("%q: the question carries input %s, cwd %q", c.cmd, q.Input, q.Cwd)
		}
		if strings.Contains(c.cmd, "rm -rf") && (q.Risk != question.RiskHigh || !strings.Contains(q.RiskWhy, "deletes files recursively")) {
			t.Errorf("%q: risk %s %q", c.cmd, q.Risk, q.RiskWhy)
		}
		_ = e.b.Answer(q.ID, question.Response{Action: question.Decline, Via: question.ViaDialog})
		if rep := recv(t, got); rep.Behavior != hook.Deny {
			t.Errorf("%q: %+v", c.cmd, rep)
		}
	}
}
