// Package control is the person's channel to a running app: a small JSON API on a unix socket in the data dir (a named pipe on Windows), and its client.
//
// The socket is created with mode 0600 inside the 0700 data dir, and every
// request is checked against the peer's uid (SO_PEERCRED on Linux), so only
// the user who runs the app can answer its questions; it is never served on
// the MCP port. On Windows the pipe's access list admits only the user and
// SYSTEM, and every request is checked against the user SID in the client
// process's token.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// Status describes the running app.
type Status struct {
	PID     int    `json:"pid"`
	Version string `json:"version"`
	URL     string `json:"url"`
	DataDir string `json:"data_dir"`
	Pending int    `json:"pending"`
	GUI     bool   `json:"gui"`
}

// Item is one question with its result, if it ended.
type Item struct {
	Question  question.Question `json:"question"`
	Result    *question.Result  `json:"result"`
	ElapsedMS int64             `json:"elapsed_ms,omitempty"`
	// Verdict is what the end meant (question.VerdictOf): allowed, denied,
	// rule_allowed, timed_out…; pending while it waits.
	Verdict question.Verdict `json:"verdict"`
}

// HistoryPage is one page of the history, newest first.
type HistoryPage struct {
	Items []Item `json:"items"`
	Next  string `json:"next,omitempty"`
}

// PendingQuestion is a pending question and the link to its page in a
// browser, for the person only.
type PendingQuestion struct {
	question.Question
	URL string `json:"url,omitempty"`
}

// AnswerRequest is the body of an answer call.
type AnswerRequest struct {
	Action question.Action `json:"action"`
	Value  json.RawMessage `json:"value,omitempty"`
	Note   string          `json:"note,omitempty"`
	// TerminalConfirmed says the caller showed the question on its
	// controlling terminal and the person typed the confirmation there. An
	// answer that approves (question.Question.Approves) needs it, and the app
	// checks that the caller really runs in the foreground of a terminal.
	TerminalConfirmed bool `json:"terminal_confirmed,omitempty"`
	// Password is the person's login password, read from the terminal with
	// echo off. An answer that approves needs it unless that terminal is
	// within a grace period; the app checks it through PAM.
	Password string `json:"password,omitempty"`
}

// SnoozeRequest is the body of a snooze call.
type SnoozeRequest struct {
	Until time.Time `json:"until"`
}

// Server serves the control API for one app.
type Server struct {
	Broker *question.Broker
	Store  history.Store
	Status func() Status
	// Show, if set, brings the app's window to the front and reports
	// whether there was one to show.
	Show func() bool
	// Quit, if set, asks the app to shut down as its tray's Quit does; it
	// must not block (the shutdown waits for this call to end).
	Quit func()
	// URL, if set, returns the link to a pending question's page in a
	// browser, or "".
	URL func(id string) string
	// Policy, if set, serves away and the rules (/v1/away, /v1/rules).
	Policy *policy.Policy
	// Hooks, if set, serves `asktray hook AGENT` (POST /v2/hook, and
	// POST /v1/hook for hooks older than the acknowledgement); without it a
	// hook finds nothing and prints nothing.
	Hooks   HookHandler
	Remotes RemoteHosts // if set, serves the remote hosts (remotes.go)
	// Person checks the login password an approval needs; nil refuses
	// every approval over the socket.
	Person *personcheck.Checker
	Log    *slog.Logger
	// IdleTimeout closes a connection that waits this long for its next
	// request (0: DefaultIdleTimeout); MaxConnsPerUser bounds the
	// connections one user holds open at once (0: DefaultMaxConnsPerUser).
	IdleTimeout     time.Duration
	MaxConnsPerUser int

	srv   *http.Server
	ln    net.Listener
	conns *connTracker
}

// maxBody limits request bodies; a form answer is the largest legitimate one.
const maxBody = 1 << 20

// Listen creates the control socket for path and starts serving on a new
// goroutine: on unix the socket file at path (removing a stale one) with
// mode 0600, on Windows a named pipe for the user and path that only the
// user and SYSTEM may open (see pipe_windows.go). It returns once the
// socket accepts connections.
func (s *Server) Listen(path string) error {
	ln, err := listenControl(path)
	if err != nil {
		return err
	}
	s.ln = ln
	idle, maxConns := s.IdleTimeout, s.MaxConnsPerUser
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	if maxConns <= 0 {
		maxConns = DefaultMaxConnsPerUser
	}
	s.conns = newConnTracker(maxConns, s.log)
	// ReadHeaderTimeout bounds a new connection's wait for its first
	// request, IdleTimeout the wait for each next one.
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idle,
		ConnContext: s.connContext, ConnState: s.conns.state}
	go func() {
		if err := s.srv.Serve(limitListener{ln, s.conns}); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log().Error("control socket stopped", "err", err)
		}
	}()
	return nil
}

// Addr returns what Listen listens on: the socket's path, or the pipe's
// name on Windows. It is "" before Listen.
func (s *Server) Addr() string {
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// Shutdown stops serving, waiting up to ctx for calls in progress, and removes the socket.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.srv == nil {
		return nil
	}
	err := s.srv.Shutdown(ctx)
	removeControl(s.ln.Addr().String())
	return err
}

func (s *Server) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// Handler returns the API's routes behind the peer check: a request whose
// connection is not a unix socket from a process of the app's own user is
// refused with 403 other_user. It is served by Listen, which records each
// connection's peer.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	return s.sameUser(mux)
}

// routes registers every endpoint of the API on mux, one line each.
func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/status", s.status)
	mux.HandleFunc("GET /v1/pending", s.pending)
	mux.HandleFunc("GET /v1/questions/{id}", s.get)
	mux.HandleFunc("POST /v1/questions/{id}/answer", s.answer)
	mux.HandleFunc("POST /v1/questions/{id}/snooze", s.snooze)
	mux.HandleFunc("GET /v1/history", s.history)
	mux.HandleFunc("POST /v1/show", s.show)
	mux.HandleFunc("POST /v1/quit", s.quit)
	mux.HandleFunc("GET /v1/away", s.getAway)
	mux.HandleFunc("POST /v1/away", s.setAway)
	s.ruleRoutes(mux)
	s.remoteRoutes(mux)
	if s.Hooks != nil {
		mux.HandleFunc("POST /v1/hook", s.hook)
		mux.HandleFunc("POST /v2/hook", s.hookAcked)
	}
}

func (s *Server) status(w http.ResponseWriter, _ *http.Request) {
	st := s.Status()
	st.Pending = len(s.Broker.Pending())
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) show(w http.ResponseWriter, _ *http.Request) {
	shown := s.Show != nil && s.Show()
	writeJSON(w, http.StatusOK, map[string]bool{"shown": shown})
}

// quit starts the app's shutdown and answers at once; the app stops serving
// once this call has ended.
func (s *Server) quit(w http.ResponseWriter, _ *http.Request) {
	if s.Quit == nil {
		writeJSON(w, http.StatusNotImplemented, apiError{Error: "this app cannot be asked to quit", Code: "unsupported"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"quitting": true})
	s.Quit()
}

// pending lists the pending questions. Their page links carry each
// question's key, so they are given only to a caller in the foreground of a
// terminal, where the person reads them.
func (s *Server) pending(w http.ResponseWriter, r *http.Request) {
	qs := s.Broker.Pending()
	out := make([]PendingQuestion, len(qs))
	_, termErr := s.onTerminal(r)
	links := s.URL != nil && termErr == nil
	for i, q := range qs {
		out[i].Question = q
		if links {
			out[i].URL = s.URL(q.ID)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	q, res, err := s.Broker.Get(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, newItem(q, res))
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	var req AnswerRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	resp := question.Response{Action: req.Action, Value: req.Value, Note: req.Note, Via: question.ViaCLI}
	via, err := s.channel(r, id, req, resp)
	if err != nil {
		writeError(w, err)
		return
	}
	resp.Via = via
	if err := s.Broker.Answer(id, resp); err != nil {
		writeError(w, err)
		return
	}
	s.log().Info("question answered", "id", id, "action", req.Action, "via", via)
	q, res, err := s.Broker.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, newItem(q, res))
}

func (s *Server) snooze(w http.ResponseWriter, r *http.Request) {
	var req SnoozeRequest
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	if err := s.Broker.Snooze(id, req.Until); err != nil {
		writeError(w, err)
		return
	}
	q, res, err := s.Broker.Get(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, newItem(q, res))
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		writeError(w, err)
		return
	}
	page, err := s.Store.List(r.Context(), f)
	if err != nil {
		writeError(w, err)
		return
	}
	out := HistoryPage{Items: make([]Item, 0, len(page.Records)), Next: page.Next}
	for _, rec := range page.Records {
		out.Items = append(out.Items, newItem(rec.Question, rec.Result))
	}
	writeJSON(w, http.StatusOK, out)
}

func parseFilter(v map[string][]string) (history.Filter, error) {
	get := func(k string) string {
		if len(v[k]) > 0 {
			return v[k][0]
		}
		return ""
	}
	f := history.Filter{Client: get("client"), Host: get("host"), Kind: question.Kind(get("kind")), Search: get("search"), Cursor: get("cursor")}
	if o := get("outcome"); o != "" {
		for s := range strings.SplitSeq(o, ",") {
			st := question.State(s)
			if st != question.StatePending && !question.Outcome(s).Valid() {
				return f, badRequest("outcome", fmt.Sprintf("%q is not pending or an outcome", s))
			}
			f.Outcomes = append(f.Outcomes, st)
		}
	}
	if v := get("verdict"); v != "" {
		vs, bad, ok := present.ParseVerdicts(strings.Split(v, ","))
		if !ok {
			return f, badRequest("verdict", fmt.Sprintf("%q is not a verdict (%s)", bad, verdictNames()))
		}
		f.Verdicts = vs
	}
	if f.Kind != "" && !f.Kind.Valid() {
		return f, badRequest("kind", fmt.Sprintf("%q is not a kind", f.Kind))
	}
	for _, k := range []string{"since", "until"} {
		if s := get(k); s != "" {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				return f, badRequest(k, "must be an RFC 3339 time")
			}
			if k == "since" {
				f.Since = t
			} else {
				f.Until = t
			}
		}
	}
	if s := get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			return f, badRequest("limit", "must be between 1 and 1000")
		}
		f.Limit = n
	}
	return f, nil
}

// verdictNames lists the names the verdict filter takes.
func verdictNames() string {
	names := make([]string, 0, len(question.Verdicts)+1)
	for _, v := range question.Verdicts {
		names = append(names, string(v))
	}
	return strings.Join(append(names, present.VerdictGroup), ", ")
}

func newItem(q question.Question, r *question.Result) Item {
	it := Item{Question: q, Result: r, Verdict: question.VerdictOf(&q, r)}
	if r != nil {
		it.ElapsedMS = r.DecidedAt.Sub(q.Created).Milliseconds()
	}
	return it
}

func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("body", "not a valid request: "+err.Error())
	}
	return nil
}

type requestError struct{ field, msg string }

func (e *requestError) Error() string { return e.field + ": " + e.msg }

func badRequest(field, msg string) error { return &requestError{field, msg} }

// apiError is the JSON body of every error response.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
	Code  string `json:"code"`
}

func writeError(w http.ResponseWriter, err error) {
	var re *requestError
	var pe *passwordError
	body := apiError{Error: err.Error()}
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, errOtherUser):
		status, body.Code = http.StatusForbidden, "other_user"
	case errors.Is(err, errNeedsPerson):
		status, body.Code = http.StatusForbidden, "needs_person"
	case errors.Is(err, errUnseen):
		status, body.Code = http.StatusForbidden, "unseen"
	case errors.As(err, &pe):
		status, body.Code = pe.status, pe.code
	case errors.As(err, &re):
		status, body.Code, body.Field = http.StatusBadRequest, "bad_request", re.field
	case errors.Is(err, question.ErrInvalid):
		status, body.Code = http.StatusBadRequest, "invalid"
		if fe, ok := errors.AsType[*question.FieldError](err); ok {
			body.Field = fe.Field
		}
	case errors.Is(err, question.ErrNotFound), errors.Is(err, policy.ErrNotFound):
		status, body.Code = http.StatusNotFound, "not_found"
	case errors.Is(err, question.ErrNotPending):
		status, body.Code = http.StatusConflict, "not_pending"
	case errors.Is(err, question.ErrClosed):
		status, body.Code = http.StatusServiceUnavailable, "closing"
	default:
		body.Code = "internal"
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
