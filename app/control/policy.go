package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/asktray/asktray/app/policy"
)

// AwayStatus says whether the person is away and what happens to new
// questions meanwhile.
type AwayStatus struct {
	Away bool            `json:"away"`
	Mode policy.AwayMode `json:"mode"`
	// Until is when away ends by itself (policy.Policy.AwayUntil).
	Until time.Time `json:"until,omitzero"`
	// Schedule is the weekly away schedule as the app reads it
	// (policy.Schedule.Describe); "" for none.
	Schedule string `json:"schedule,omitempty"`
}

// AwayRequest is the body of a set-away call.
type AwayRequest struct {
	Away *bool `json:"away"`
}

var errNoPolicy = errors.New("this app keeps no rules")

func (s *Server) awayStatus() AwayStatus {
	return AwayStatus{Away: s.Policy.Away(), Mode: s.Policy.AwayMode(), Until: s.Policy.AwayUntil(),
		Schedule: s.Policy.AwaySchedule().Describe()}
}

func (s *Server) getAway(w http.ResponseWriter, _ *http.Request) {
	if s.Policy == nil {
		writeError(w, errNoPolicy)
		return
	}
	writeJSON(w, http.StatusOK, s.awayStatus())
}

func (s *Server) setAway(w http.ResponseWriter, r *http.Request) {
	if s.Policy == nil {
		writeError(w, errNoPolicy)
		return
	}
	var req AwayRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Away == nil {
		writeError(w, badRequest("away", "required: true or false"))
		return
	}
	if err := s.Policy.SetAway(*req.Away); err != nil {
		writeError(w, err)
		return
	}
	s.log().Info("away changed", "away", *req.Away, "via", "cli")
	writeJSON(w, http.StatusOK, s.awayStatus())
}

// ruleRoutes adds the rules' routes to mux.
func (s *Server) ruleRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/rules", s.rules)
	mux.HandleFunc("POST /v1/rules", s.addRule)
	mux.HandleFunc("DELETE /v1/rules/{id}", s.removeRule)
}

func (s *Server) rules(w http.ResponseWriter, _ *http.Request) {
	if s.Policy == nil {
		writeError(w, errNoPolicy)
		return
	}
	rs := s.Policy.Rules()
	if rs == nil {
		rs = []policy.Rule{}
	}
	writeJSON(w, http.StatusOK, rs)
}

func (s *Server) removeRule(w http.ResponseWriter, r *http.Request) {
	if s.Policy == nil {
		writeError(w, errNoPolicy)
		return
	}
	id := r.PathValue("id")
	rule, ok := s.Policy.Rule(id)
	if !ok {
		writeError(w, policy.ErrNotFound)
		return
	}
	if rule.Decision != policy.Allow {
		if err := s.proveWidening(r, rule); err != nil {
			writeError(w, err)
			return
		}
	}
	if err := s.Policy.Remove(id); err != nil {
		writeError(w, err)
		return
	}
	s.log().Info("rule removed", "id", id, "decision", rule.Decision, "via", "cli")
	writeJSON(w, http.StatusOK, rule)
}

// RuleChange is the body of a rule change that can widen what is allowed
// (removing a deny rule): the person's login password, read from the
// terminal with echo off.
type RuleChange struct {
	Password string `json:"password,omitempty"`
}

// proveWidening checks the person's proof for removing deny or ask rule
// rule: removing it can allow what it denied or sent to the person (an
// allow rule beneath it, or the agent's own permissions), so it needs what an approval needs: a caller in
// the foreground of a terminal and the login password (or that terminal's
// grace period). It blocks while PAM checks.
func (s *Server) proveWidening(r *http.Request, rule policy.Rule) error {
	var req RuleChange
	if r.ContentLength != 0 {
		if err := decodeBody(r, &req); err != nil {
			return err
		}
	}
	what := fmt.Sprintf("removing %s rule %s (%s for %s)", rule.Decision, rule.ID, rule.Action, rule.Client)
	return s.provePerson(r, what, "can allow what it holds back",
		fmt.Sprintf("the rule stays. Remove it in the Asktray window's Rules tab, or run 'asktray rules rm %s' in your own terminal", rule.ID), req.Password)
}

// provePerson checks that the caller of a change that widens what is
// allowed (what, which why) is the person: in the foreground of a terminal,
// with password or the terminal's grace period; else the error ends with
// otherwise. It blocks while PAM checks.
func (s *Server) provePerson(r *http.Request, what, why, otherwise, password string) error {
	term, err := s.onTerminal(r)
	if err != nil {
		s.log().Warn("rule change over the control socket refused", "what", what, "err", err)
		return fmt.Errorf("%w (%s %s; %v); %s", errNeedsPerson, what, why, err, otherwise)
	}
	return s.proveTerminal(what, term, password)
}

// RuleAdd is the body of POST /v1/rules: the rule to add ('asktray rules
// add'), and for an allow rule the person's login password, read from the
// terminal with echo off.
type RuleAdd struct {
	Rule     policy.Rule `json:"rule"`
	Password string      `json:"password,omitempty"`
}

// addRule adds a standing rule. A deny or ask rule only narrows what is
// allowed and is added as asked; an allow rule widens it, so it needs what
// an approval needs (provePerson). The caller cannot set the rule's id,
// session, high-risk confirmation or quiet flag. A bad field is refused,
// naming it, before any password is asked.
func (s *Server) addRule(w http.ResponseWriter, r *http.Request) {
	if s.Policy == nil {
		writeError(w, errNoPolicy)
		return
	}
	var req RuleAdd
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	rule := req.Rule
	rule.ID, rule.SessionID, rule.HighRisk, rule.Quiet = "", "", false, false
	rule.Scope = policy.ScopeAlways
	if err := rule.Validate(); err != nil {
		writeError(w, err)
		return
	}
	if rule.Decision == policy.Allow {
		what := fmt.Sprintf("adding allow rule %s for %s", rule.Action, rule.Client)
		if err := s.provePerson(r, what, "allows without asking you", "the rule is not added. Add it in the Asktray "+
			"window's Rules tab, or run 'asktray rules add' in your own terminal", req.Password); err != nil {
			writeError(w, err)
			return
		}
	}
	added, err := s.Policy.Add(rule)
	if err != nil {
		writeError(w, err)
		return
	}
	s.log().Info("rule added", "id", added.ID, "decision", added.Decision, "host", added.Host, "via", "cli")
	writeJSON(w, http.StatusOK, added)
}

// Away returns whether the person is away, and the away mode.
func (c *Client) Away(ctx context.Context) (AwayStatus, error) {
	var a AwayStatus
	return a, c.do(ctx, http.MethodGet, "/v1/away", nil, &a)
}

// SetAway turns away on or off and returns the new state.
func (c *Client) SetAway(ctx context.Context, on bool) (AwayStatus, error) {
	var a AwayStatus
	return a, c.do(ctx, http.MethodPost, "/v1/away", AwayRequest{Away: &on}, &a)
}

// Rules returns the rules, oldest first.
func (c *Client) Rules(ctx context.Context) ([]policy.Rule, error) {
	var rs []policy.Rule
	return rs, c.do(ctx, http.MethodGet, "/v1/rules", nil, &rs)
}

// AddRule adds rule (scope always) and returns it as saved; a bad field is
// an *APIError with Code invalid naming it. Adding an allow rule needs the
// caller on a terminal and password (needs_password when it is "" and the
// terminal has no grace period). It blocks until the app answers.
func (c *Client) AddRule(ctx context.Context, rule policy.Rule, password string) (policy.Rule, error) {
	var r policy.Rule
	return r, c.do(ctx, http.MethodPost, "/v1/rules", RuleAdd{Rule: rule, Password: password}, &r)
}

// RemoveRule deletes rule id and returns it; an unknown id is an
// *APIError with Code not_found. Removing a deny rule needs the caller on a
// terminal and password (needs_password when it is "" and the terminal has
// no grace period).
func (c *Client) RemoveRule(ctx context.Context, id, password string) (policy.Rule, error) {
	var r policy.Rule
	var body any
	if password != "" {
		body = RuleChange{Password: password}
	}
	return r, c.do(ctx, http.MethodDelete, "/v1/rules/"+url.PathEscape(id), body, &r)
}
