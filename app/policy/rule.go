// Package policy holds the person's standing decisions: rules that answer
// approvals and confirmations without a dialog, and away mode.
//
// A Policy is safe for concurrent use. It imports only the standard library
// and app/question; app/boundary_test.go enforces that.
//
// # What rules decide
//
// Rules decide only approval and confirm questions (request_approval,
// permission_prompt, ask_confirm): an allow rule answers an approval with
// "allow" and a confirm with "yes"; a deny rule rejects them. Questions that
// want content (text, choice, form) and notices always go to the person.
//
// # Matching and precedence
//
// A rule matches a question when it has not expired, its scope covers the
// question's client session, its Client glob matches the client's name and
// its Action glob matches ActionKey(q). Among the matching rules:
//
//   - One rule beats another when it is at least as specific in both its
//     client and its action pattern, and more specific in at least one.
//     A pattern is more specific when it is exact (no wildcard) and the other
//     is not; else when it has more literal characters; else when it has
//     fewer wildcards.
//   - Of the rules no other matching rule beats, a deny wins over an allow.
//     So a more specific rule beats a general one, and at equal (or crossed)
//     specificity deny beats allow.
//
// # The high-risk guard
//
// A destructive ask_confirm, and an approval with risk high or destructive
// set, are guarded: an allow rule decides them only when it has HighRisk set
// (the person confirmed it a second time) and both its client and its action
// pattern are exact. Other allow rules are ignored for them; deny rules
// always apply.
//
// # Away
//
// Away never approves. With away on and the away mode reject, a question no
// rule decides ends as auto_rejected with reason away (notices excepted: they
// ask nothing); with the mode hold it waits for the person as usual, and the
// UI keeps quiet about it.
package policy

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
)

// Decision is what a rule says.
type Decision string

// The decisions.
const (
	Allow Decision = "allow"
	Deny  Decision = "deny"
	// Ask sends what it matches to the person, "always ask me for this":
	// no allow rule beneath it and no agent's own mode (Claude Code's auto
	// mode, through its PreToolUse hook) decides it instead. A deny rule
	// as specific still wins over it.
	Ask Decision = "ask"
)

// Decisions lists the decisions in the order a person is offered them.
var Decisions = []Decision{Allow, Ask, Deny}

// Valid reports whether d is a known decision.
func (d Decision) Valid() bool { return d == Allow || d == Deny || d == Ask }

// Scope says how long a rule lasts.
type Scope string

// The scopes.
const (
	// ScopeSession covers only the client session the rule was made in; such
	// rules are not saved, and end when the app stops.
	ScopeSession Scope = "session"
	// ScopeAlways lasts until the rule is removed or Expires passes.
	ScopeAlways Scope = "always"
)

// AwayMode says what happens to new questions while the person is away.
type AwayMode string

// The away modes.
const (
	AwayHold   AwayMode = "hold"   // they wait, silently (the default)
	AwayReject AwayMode = "reject" // they end as auto_rejected, reason away
	// AwayHandback hands questions back to the agent's own chat: they end
	// at once as auto_rejected, reason handed_back, and the agent is told
	// to ask the person there. Approvals and destructive confirmations are
	// never handed back; they wait, as with AwayHold.
	AwayHandback AwayMode = "handback"
)

// AwayModes lists the away modes in the order help texts give them.
var AwayModes = []AwayMode{AwayHold, AwayReject, AwayHandback}

// Valid reports whether m is a known away mode.
func (m AwayMode) Valid() bool { return m == AwayHold || m == AwayReject || m == AwayHandback }

// Rule is one standing decision.
type Rule struct {
	ID        string    `json:"id"`
	Client    string    `json:"client"` // glob on the client's name; "*" is any client
	Action    string    `json:"action"` // glob on ActionKey(q)
	Decision  Decision  `json:"decision"`
	Scope     Scope     `json:"scope"`
	SessionID string    `json:"session_id,omitempty"` // for ScopeSession: the client session it covers
	Created   time.Time `json:"created"`
	Expires   time.Time `json:"expires,omitzero"` // zero: never
	Note      string    `json:"note,omitempty"`
	// HighRisk marks a rule the person confirmed a second time for exactly
	// one client and action; only such an allow rule decides a guarded question.
	HighRisk bool `json:"high_risk,omitempty"`
	// Match says what of the request's content the rule looks at (none:
	// every request of its action), and Pattern what it must be.
	Match   MatchKind `json:"match,omitempty"`
	Pattern string    `json:"pattern,omitempty"`
	// Cwd scopes the rule to requests run in this working directory or
	// below it ("": anywhere).
	Cwd string `json:"cwd,omitempty"`
	// Host is a glob on where the asking agent runs (question.Question.Host,
	// the name given to 'asktray remote add'); "" covers every host, this
	// machine's own agents included. "Always…" scopes a rule for a remote
	// question to its host.
	Host string `json:"host,omitempty"`
	// Quiet turns off the notifications of the rule's decisions (the
	// person muted it from the tray); they still count in the tray's
	// summary of the day and show in History.
	Quiet bool `json:"quiet,omitempty"`
}

// Limits on a rule's fields.
const (
	MaxPattern = 300
	MaxNote    = 500
)

// ActionKey returns what rules' Action patterns match for q: its tool
// ("ask_confirm"), or its tool and action ("request_approval:Deploy to
// production", "permission_prompt:Bash") when it has an action. A question
// with no tool uses its kind in place of the tool.
func ActionKey(q question.Question) string {
	tool := q.Tool
	if tool == "" {
		tool = string(q.Kind)
	}
	if q.Action != "" {
		return tool + ":" + q.Action
	}
	return tool
}

// SuggestExpiry is how long the rule "Always allow…" proposes lasts.
const SuggestExpiry = 24 * time.Hour

// SuggestRule returns the narrowest rule that covers q, as "Always allow…"
// (or "Always deny…") proposes it: exactly q's client and ActionKey, exactly
// its content (the command, the path, the whole input, or a
// request_approval's details), in q's working directory, for q's session
// when it has one (else always). The caller sets Expires (SuggestExpiry
// from now) and, after its extra confirmation, HighRisk.
func SuggestRule(q question.Question, d Decision) Rule {
	r := Rule{
		Client: QuoteGlob(q.Client.Name), Action: QuoteGlob(ActionKey(q)),
		Decision: d, Scope: ScopeAlways, SessionID: q.Client.SessionID, Cwd: cleanDir(q.Cwd),
	}
	if q.Host != "" {
		r.Host = QuoteGlob(q.Host)
	}
	if r.SessionID != "" {
		r.Scope = ScopeSession
	}
	s := SubjectOf(q)
	switch {
	case s.HasCmd:
		r.Match, r.Pattern = MatchCommand, strings.TrimSpace(s.Command)
	case s.Path != "" && strings.HasPrefix(s.Path, "/"):
		r.Match, r.Pattern = MatchPath, QuoteGlob(s.Path)
	case s.HasIn:
		r.Match, r.Pattern = MatchInput, s.Input
	}
	return r
}

// Guarded reports whether q is a destructive confirm or a high-risk (or
// destructive) approval, which only a HighRisk rule may allow.
func Guarded(q question.Question) bool {
	switch q.Kind {
	case question.KindConfirm:
		return q.Destructive
	case question.KindApproval:
		return q.Destructive || q.Risk == question.RiskHigh
	}
	return false
}

// decidable reports whether rules decide questions of q's kind.
func decidable(q question.Question) bool {
	return q.Kind == question.KindApproval || q.Kind == question.KindConfirm
}

// applies reports whether r covers q at now, before precedence and the guard.
func (r *Rule) applies(q question.Question, now time.Time) bool {
	if r.Expired(now) {
		return false
	}
	if r.Scope == ScopeSession && (r.SessionID == "" || r.SessionID != q.Client.SessionID) {
		return false
	}
	if r.Host != "" && !Glob(r.Host, q.Host) {
		return false
	}
	return Glob(r.Client, q.Client.Name) && Glob(r.Action, ActionKey(q)) && r.withinCwd(cleanDir(q.Cwd))
}

// mayDecide reports whether r may decide q under the high-risk guard: a
// guarded question with content (a command, a path, an input, details) is
// allowed only by an exact content rule made with the high-risk tick.
func (r *Rule) mayDecide(q question.Question, s Subject) bool {
	if r.Decision != Allow || !Guarded(q) {
		return true // deny and ask rules always apply
	}
	if !r.HighRisk || !IsLiteral(r.Client) || !IsLiteral(r.Action) {
		return false
	}
	hasContent := s.HasCmd || s.Path != "" || s.HasIn
	return !hasContent || r.exact()
}

// beats reports whether r is at least as specific as o in its client, its
// action and its content, and more specific in one.
func (r *Rule) beats(o *Rule) bool {
	c := cmpSpecificity(specificityOf(r.Client), specificityOf(o.Client))
	a := cmpSpecificity(specificityOf(r.Action), specificityOf(o.Action))
	m := r.contentRank() - o.contentRank()
	return c >= 0 && a >= 0 && m >= 0 && (c > 0 || a > 0 || m > 0)
}

// Validate checks r's fields as Add does, so a caller can refuse a bad rule
// before asking the person anything; errors name the field and the limit
// and wrap question.ErrInvalid.
func (r Rule) Validate() error { return r.validate() }

// validate checks r's fields; errors name the field and the limit and wrap
// question.ErrInvalid. now is when the rule is being made or changed.
func (r *Rule) validate() error {
	var errs []error
	for _, p := range []struct{ field, v string }{{"client", r.Client}, {"action", r.Action}} {
		switch n := utf8.RuneCountInString(p.v); {
		case p.v == "":
			errs = append(errs, fieldErr(p.field, "must not be empty (use * for any)"))
		case n > MaxPattern:
			errs = append(errs, fieldErr(p.field, "at most %d characters, got %d", MaxPattern, n))
		default:
			if _, err := parseGlob(p.v); err != nil {
				errs = append(errs, fieldErr(p.field, "%v", err))
			} else if r.HighRisk && !IsLiteral(p.v) {
				errs = append(errs, fieldErr(p.field, "a high-risk rule names exactly one %s, without * or ?", p.field))
			}
		}
	}
	errs = append(errs, r.validateContent()...)
	if r.Host != "" {
		if n := utf8.RuneCountInString(r.Host); n > MaxPattern {
			errs = append(errs, fieldErr("host", "at most %d characters, got %d", MaxPattern, n))
		} else if _, err := parseGlob(r.Host); err != nil {
			errs = append(errs, fieldErr("host", "%v", err))
		}
	}
	if !r.Decision.Valid() {
		errs = append(errs, fieldErr("decision", "%q is not one of allow, ask, deny", r.Decision))
	}
	switch r.Scope {
	case ScopeAlways:
	case ScopeSession:
		if r.SessionID == "" {
			errs = append(errs, fieldErr("session_id", "a session rule needs the session it covers"))
		}
	default:
		errs = append(errs, fieldErr("scope", "%q is not one of session, always", r.Scope))
	}
	if !r.Expires.IsZero() && !r.Expires.After(r.Created) {
		errs = append(errs, fieldErr("expires", "must be after the rule was created (%s)", r.Created.Format(time.RFC3339)))
	}
	if !utf8.ValidString(r.Note) {
		errs = append(errs, fieldErr("note", "not valid UTF-8"))
	} else if n := utf8.RuneCountInString(r.Note); n > MaxNote {
		errs = append(errs, fieldErr("note", "at most %d characters, got %d", MaxNote, n))
	}
	if len(errs) == 0 {
		return nil
	}
	return &invalidError{errs: errs}
}

func fieldErr(field, format string, args ...any) error {
	return &question.FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// invalidError holds a rule's validation failures; it wraps
// question.ErrInvalid and each *question.FieldError.
type invalidError struct{ errs []error }

func (e *invalidError) Error() string {
	msgs := make([]string, len(e.errs))
	for i, err := range e.errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e *invalidError) Unwrap() []error { return append([]error{question.ErrInvalid}, e.errs...) }
