package control

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/history/historytest"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

func newPolicyServer(t *testing.T) (*Client, *policy.Policy) {
	t.Helper()
	dir := t.TempDir()
	pol, err := policy.Open(filepath.Join(dir, policy.File))
	if err != nil {
		t.Fatal(err)
	}
	store := historytest.New(t)
	b := question.NewBroker(question.Config{Journal: store, Gate: pol.Gate})
	s := &Server{Broker: b, Store: store, Policy: pol, Status: func() Status { return Status{} }}
	sock := filepath.Join(dir, "c.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.Shutdown(context.Background())
		_ = b.Close()
	})
	return NewClient(sock), pol
}

func TestServer_Away(t *testing.T) {
	t.Parallel()
	c, pol := newPolicyServer(t)
	ctx := context.Background()
	a, err := c.Away(ctx)
	if err != nil || a.Away || a.Mode != policy.AwayHold {
		t.Fatalf("initial away: %+v %v", a, err)
	}
	pol.SetAwayMode(policy.AwayReject)
	if a, err = c.SetAway(ctx, true); err != nil || !a.Away || a.Mode != policy.AwayReject || !pol.Away() {
		t.Fatalf("set away on: %+v %v (policy away %v)", a, err, pol.Away())
	}
	if a, err = c.SetAway(ctx, false); err != nil || a.Away || pol.Away() {
		t.Fatalf("set away off: %+v %v", a, err)
	}
	// A body without "away" is refused by name, and changes nothing.
	var got AwayStatus
	err = c.do(ctx, http.MethodPost, "/v1/away", map[string]any{}, &got)
	if ae, ok := errors.AsType[*APIError](err); !ok || ae.Status != 400 || ae.Field != "away" {
		t.Fatalf("empty body: %#v", err)
	}
	err = c.do(ctx, http.MethodPost, "/v1/away", map[string]any{"away": true, "mode": "approve"}, &got)
	if ae, ok := errors.AsType[*APIError](err); !ok || ae.Status != 400 || pol.Away() {
		t.Fatalf("unknown field: %#v, away %v", err, pol.Away())
	}
}

func TestServer_Rules(t *testing.T) {
	t.Parallel()
	c, pol := newPolicyServer(t)
	ctx := context.Background()
	rs, err := c.Rules(ctx)
	if err != nil || rs == nil || len(rs) != 0 {
		t.Fatalf("no rules: %#v %v", rs, err)
	}
	r1, err := pol.Add(policy.Rule{Client: "claude-code", Action: "permission_prompt:Bash", Decision: policy.Allow, Scope: policy.ScopeAlways, Note: "tests"})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := pol.Add(policy.Rule{Client: "*", Action: "request_approval:Deploy*", Decision: policy.Deny, Scope: policy.ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	rs, err = c.Rules(ctx)
	if err != nil || len(rs) != 2 || rs[0].ID != r1.ID || rs[1].ID != r2.ID || rs[0].Note != "tests" || rs[1].Decision != policy.Deny {
		t.Fatalf("rules: %+v %v", rs, err)
	}
	removed, err := c.RemoveRule(ctx, r1.ID, "")
	if err != nil || removed.ID != r1.ID || removed.Action != "permission_prompt:Bash" {
		t.Fatalf("remove: %+v %v", removed, err)
	}
	if _, ok := pol.Rule(r1.ID); ok {
		t.Fatal("the rule is still there")
	}
	_, err = c.RemoveRule(ctx, r1.ID, "")
	if ae, ok := errors.AsType[*APIError](err); !ok || ae.Status != 404 || ae.Code != "not_found" {
		t.Fatalf("remove twice: %#v", err)
	}
}

func TestServer_NoPolicy(t *testing.T) {
	t.Parallel()
	c, _ := newServer(t)
	if _, err := c.Rules(context.Background()); err == nil {
		t.Fatal("rules without a policy succeeded")
	}
}
