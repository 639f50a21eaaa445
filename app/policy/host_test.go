package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/question"
)

// TestRuleHostScope: a rule with a host covers only questions from hosts its
// glob matches, never this machine's own; one without covers every host;
// "Always…" on a remote question scopes the rule to that host.
func TestRuleHostScope(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	local := bash("npm test")
	remote := bash("npm test")
	remote.Host = "build-01"
	other := bash("npm test")
	other.Host = "agent@localhost"

	scoped := SuggestRule(remote, Allow)
	if scoped.Host != "build-01" {
		t.Fatalf("SuggestRule on a remote question: host %q, want build-01", scoped.Host)
	}
	if got := SuggestRule(local, Allow).Host; got != "" {
		t.Fatalf("SuggestRule on a local question: host %q, want none", got)
	}
	added, err := p.Add(scoped)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Match(remote, t0); !ok || got.ID != added.ID {
		t.Fatalf("the host's rule does not decide its host's question: %+v %v", got, ok)
	}
	for name, q := range map[string]question.Question{"local": local, "another host": other} {
		if got, ok := p.Match(q, t0); ok {
			t.Fatalf("the build-01 rule decides a question from %s: %+v", name, got)
		}
	}
	if !strings.Contains(scoped.MatchText(), " on build-01") {
		t.Fatalf("MatchText %q does not name the host", scoped.MatchText())
	}

	any := SuggestRule(local, Deny)
	any.Scope, any.SessionID = ScopeAlways, ""
	if _, err := p.Add(any); err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Match(other, t0); !ok || got.Decision != Deny {
		t.Fatalf("a rule without a host does not cover another host: %+v %v", got, ok)
	}

	bad := scoped
	bad.Host = "build-01\\"
	if _, err := p.Add(bad); !errors.Is(err, question.ErrInvalid) || !strings.Contains(err.Error(), "host") {
		t.Fatalf("a host glob ending in an escape: %v, want an error naming host", err)
	}
	bad.Host = strings.Repeat("h", MaxPattern+1)
	if _, err := p.Add(bad); err == nil || !strings.Contains(err.Error(), "host") {
		t.Fatalf("a long host glob: %v, want an error naming host", err)
	}
}
