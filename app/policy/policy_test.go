package policy

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
)

func openTemp(t *testing.T) (*Policy, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), File)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return p, path
}

func TestPersistence(t *testing.T) {
	t.Parallel()
	p, path := openTemp(t)
	if len(p.Rules()) != 0 || p.Away() || p.AwayMode() != AwayHold {
		t.Fatalf("fresh policy: %v rules, away %v, mode %s", len(p.Rules()), p.Away(), p.AwayMode())
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open wrote a file before any change: %v", err)
	}
	exp := time.Now().Add(48 * time.Hour)
	r, err := p.Add(Rule{Client: "claude-code", Action: "permission_prompt:Bash", Decision: Allow, Scope: ScopeAlways, SessionID: "dropped", Expires: exp, Note: "ok in this repo"})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == "" || r.Created.IsZero() || r.SessionID != "" {
		t.Fatalf("Add returned %+v; want an id, a created time and no session", r)
	}
	sess, err := p.Add(Rule{Client: "cursor", Action: "*", Decision: Deny, Scope: ScopeSession, SessionID: "s9"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetAway(true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("policy file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	var st state
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &st); err != nil || !st.Away || len(st.Rules) != 1 || st.Rules[0].ID != r.ID {
		t.Fatalf("file holds %s (%v)", b, err)
	}
	if len(p.Rules()) != 2 {
		t.Fatalf("in memory: %d rules, want 2 (the session rule too)", len(p.Rules()))
	}

	q, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rules := q.Rules()
	if !q.Away() || len(rules) != 1 {
		t.Fatalf("reopened: away %v, rules %+v", q.Away(), rules)
	}
	got := rules[0]
	if got.ID != r.ID || got.Client != r.Client || got.Action != r.Action || got.Decision != Allow || got.Note != r.Note ||
		!got.Created.Equal(r.Created) || !got.Expires.Equal(exp.UTC()) {
		t.Fatalf("reopened rule %+v, want %+v", got, r)
	}
	if _, ok := q.Rule(sess.ID); ok {
		t.Fatal("a session rule outlived its app")
	}

	// Update keeps Created; Remove deletes; unknown ids are ErrNotFound.
	got.Decision, got.Created = Deny, time.Time{}
	if err := q.Update(got); err != nil {
		t.Fatal(err)
	}
	if u, _ := q.Rule(got.ID); u.Decision != Deny || !u.Created.Equal(r.Created) {
		t.Fatalf("updated %+v", u)
	}
	if err := q.Update(Rule{ID: "nope", Client: "*", Action: "*", Decision: Deny, Scope: ScopeAlways}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Update unknown: %v", err)
	}
	if err := q.Remove(got.ID); err != nil {
		t.Fatal(err)
	}
	if err := q.Remove(got.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Remove twice: %v", err)
	}
	if again, err := Open(path); err != nil || len(again.Rules()) != 0 {
		t.Fatalf("after remove: %v, %v", again.Rules(), err)
	}
}

func TestAddValidation(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	ok := Rule{Client: "*", Action: "permission_prompt:*", Decision: Allow, Scope: ScopeAlways}
	cases := []struct {
		name string
		edit func(r *Rule)
		want string
	}{
		{"empty_client", func(r *Rule) { r.Client = "" }, "client: must not be empty"},
		{"empty_action", func(r *Rule) { r.Action = "" }, "action: must not be empty"},
		{"long_action", func(r *Rule) { r.Action = strings.Repeat("a", MaxPattern+1) }, "action: at most 300 characters, got 301"},
		{"bad_escape", func(r *Rule) { r.Action = `Bash\` }, "action: ends with an unfinished escape"},
		{"bad_decision", func(r *Rule) { r.Decision = "maybe" }, `decision: "maybe" is not one of allow, ask, deny`},
		{"bad_scope", func(r *Rule) { r.Scope = "" }, `scope: "" is not one of session, always`},
		{"session_without_id", func(r *Rule) { r.Scope = ScopeSession }, "session_id: a session rule needs the session"},
		{"expires_past", func(r *Rule) { r.Expires = time.Now().Add(-time.Hour) }, "expires: must be after the rule was created"},
		{"long_note", func(r *Rule) { r.Note = strings.Repeat("n", MaxNote+1) }, "note: at most 500 characters, got 501"},
		{"high_risk_glob_action", func(r *Rule) { r.HighRisk = true; r.Client = "claude-code" }, "action: a high-risk rule names exactly one action"},
		{"high_risk_glob_client", func(r *Rule) { r.HighRisk = true; r.Action = "request_approval:Deploy" }, "client: a high-risk rule names exactly one client"},
	}
	for _, c := range cases {
		r := ok
		c.edit(&r)
		_, err := p.Add(r)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, question.ErrInvalid) {
			t.Errorf("%s: %v, want %q wrapping ErrInvalid", c.name, err, c.want)
		}
		if _, ok := errors.AsType[*question.FieldError](err); !ok {
			t.Errorf("%s: no FieldError in %v", c.name, err)
		}
	}
	if len(p.Rules()) != 0 {
		t.Fatalf("invalid rules were kept: %+v", p.Rules())
	}
	hr := Rule{Client: "claude-code", Action: QuoteGlob("request_approval:Delete *.log"), Decision: Allow, Scope: ScopeAlways, HighRisk: true}
	if _, err := p.Add(hr); err != nil {
		t.Fatalf("an exact high-risk rule with an escaped star: %v", err)
	}
}

func TestSaveFailureChangesNothing(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	p.saveHook = func() error { return errors.New("disk full") }
	if _, err := p.Add(Rule{Client: "*", Action: "*", Decision: Deny, Scope: ScopeAlways}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Add: %v", err)
	}
	if err := p.SetAway(true); err == nil {
		t.Fatal("SetAway did not report the failed write")
	}
	if len(p.Rules()) != 0 || p.Away() {
		t.Fatalf("failed changes stuck: rules %v, away %v", p.Rules(), p.Away())
	}
}

func TestOpenRejectsBadFile(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"not_json":     `{`,
		"unknown_key":  `{"away":false,"rules":[],"extra":1}`,
		"bad_rule":     `{"rules":[{"id":"a","client":"","action":"*","decision":"allow","scope":"always"}]}`,
		"repeated_ids": `{"rules":[{"id":"a","client":"*","action":"*","decision":"allow","scope":"always"},{"id":"a","client":"*","action":"*","decision":"deny","scope":"always"}]}`,
	}
	for name, body := range cases {
		path := filepath.Join(t.TempDir(), File)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open = %v, want an error naming the file", name, err)
		}
	}
}

func TestSubscribe(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	var calls atomic.Int32
	var sawAway atomic.Bool
	cancel := p.Subscribe(func() {
		calls.Add(1)
		sawAway.Store(p.Away()) // calling back into the Policy must not deadlock
		_ = p.Rules()
	})
	if err := p.SetAway(true); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || !sawAway.Load() {
		t.Fatalf("after SetAway: %d calls, saw away %v", calls.Load(), sawAway.Load())
	}
	r, err := p.Add(Rule{Client: "*", Action: "*", Decision: Deny, Scope: ScopeAlways})
	if err != nil {
		t.Fatal(err)
	}
	p.SetAwayMode(AwayReject)
	p.SetAwayMode(AwayReject) // no change, no call
	if err := p.Remove(r.ID); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 4 {
		t.Fatalf("%d calls, want 4 (away, add, mode, remove)", calls.Load())
	}
	_ = p.Remove("nope") // a failed change tells nobody
	cancel()
	_ = p.SetAway(false)
	if calls.Load() != 4 {
		t.Fatalf("%d calls after cancel or a failed change, want 4", calls.Load())
	}
}

func TestSetAwayModeDefaultsToHold(t *testing.T) {
	t.Parallel()
	p, _ := openTemp(t)
	p.SetAwayMode(AwayHandback)
	if p.AwayMode() != AwayHandback {
		t.Fatalf("mode %s, want handback", p.AwayMode())
	}
	p.SetAwayMode(AwayReject)
	p.SetAwayMode("approve")
	if p.AwayMode() != AwayHold {
		t.Fatalf("mode %s after an unknown mode, want hold", p.AwayMode())
	}
}

func TestSuggestRule(t *testing.T) {
	t.Parallel()
	q := approval("claude-code", "s1", "request_approval", "Delete *.log", question.RiskHigh)
	q.Details = "removes logs older than a week"
	r := SuggestRule(q, Allow)
	if r.Client != "claude-code" || r.Action != `request_approval:Delete \*.log` || r.Decision != Allow || r.Scope != ScopeSession ||
		r.SessionID != "s1" || r.HighRisk || r.Match != MatchInput || r.Pattern != q.Details {
		t.Fatalf("SuggestRule = %+v", r)
	}
	r.HighRisk = true
	p, _ := openTemp(t)
	added, err := p.Add(r)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Match(q, time.Now()); !ok || got.ID != added.ID {
		t.Fatalf("the suggested high-risk rule does not decide its own question: %+v %v", got, ok)
	}
	other := approval("claude-code", "s1", "request_approval", "Delete a.log", question.RiskHigh)
	other.Details = q.Details
	if got, ok := p.Match(other, time.Now()); ok {
		t.Fatalf("the escaped star matched another action: %+v", got)
	}
	otherDetails := q
	otherDetails.Details = "DROP TABLE logs CASCADE"
	if got, ok := p.Match(otherDetails, time.Now()); ok {
		t.Fatalf("the rule matched other details: %+v", got)
	}
}
