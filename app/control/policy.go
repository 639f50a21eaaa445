package control

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/asktray/asktray/app/policy"
)

// AwayStatus says whether the person is away and what happens to new
// questions meanwhile.
type AwayStatus struct {
	Away bool            `json:"away"`
	Mode policy.AwayMode `json:"mode"`
}

// AwayRequest is the body of a set-away call.
type AwayRequest struct {
	Away *bool `json:"away"`
}

var errNoPolicy = errors.New("this app keeps no rules")

func (s *Server) awayStatus() AwayStatus {
	return AwayStatus{Away: s.Policy.Away(), Mode: s.Policy.AwayMode()}
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
	if err := s.Policy.Remove(id); err != nil {
		writeError(w, err)
		return
	}
	s.log().Info("rule removed", "id", id, "via", "cli")
	writeJSON(w, http.StatusOK, rule)
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

// RemoveRule deletes rule id and returns it; an unknown id is an
// *APIError with Code not_found.
func (c *Client) RemoveRule(ctx context.Context, id string) (policy.Rule, error) {
	var r policy.Rule
	return r, c.do(ctx, http.MethodDelete, "/v1/rules/"+url.PathEscape(id), nil, &r)
}
