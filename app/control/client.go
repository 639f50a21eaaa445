package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hookclient"
	"github.com/asktray/asktray/app/question"
)

// ErrNoApp means no app answers on the control socket.
var ErrNoApp = hookclient.ErrNoApp

// APIError is an error response from the app.
type APIError struct {
	Status  int    // HTTP status
	Code    string // invalid, not_found, not_pending, bad_request, other_user, closing, internal
	Field   string // the field at fault, when one is
	Message string
}

func (e *APIError) Error() string { return e.Message }

// Client talks to the control socket of a running app. Its methods block
// until the app answers, at most callTimeout (Hook: see there), and are safe
// for concurrent use.
type Client struct {
	hc   *http.Client
	path string
	dial hookclient.Dialer // checked; Hook's own connections
}

// NewClient returns a client for the control socket for path (the socket
// file on unix, the pipe Listen made for path on Windows). It does not
// connect until the first call.
func NewClient(path string) *Client { return NewCheckedClient(path, nil) }

// callTimeout bounds every call but Hook: a stopped app (SIGSTOP) still has
// its socket accept connections, and nobody answers. An answer the app
// checks through PAM takes a few seconds at most.
const callTimeout = 30 * time.Second

// ErrWrongServer means the process serving the control socket is not the
// one a checked client trusts (see NewCheckedClient).
var ErrWrongServer = hookclient.ErrWrongServer

// ServerPIDs says whether a checked client can learn which process serves
// the socket here (hookclient.ServerPID).
const ServerPIDs = hookclient.ServerPIDs

// NewCheckedClient is NewClient for a caller that trusts only the running
// app: on each new connection it hands check the pid of the process that
// serves the socket, as the kernel recorded it when that process listened
// (SO_PEERCRED), before sending anything, and hangs up with an error
// wrapping ErrWrongServer unless check returns nil. A nil check checks
// nothing. Where the kernel does not say (ServerPIDs is false), every
// connection of a checked client fails.
func NewCheckedClient(path string, check func(pid int) error) *Client {
	dial := hookclient.CheckedDial(func(ctx context.Context) (net.Conn, error) { return dialControl(ctx, path) }, check)
	tr := &http.Transport{
		// Sooner than the app's DefaultIdleTimeout, so that the client, not
		// the app, drops an idle connection, and never sends on one the app
		// is closing.
		IdleConnTimeout: DefaultIdleTimeout / 2,
		DialContext:     func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
	}
	return &Client{hc: &http.Client{Transport: tr, Timeout: callTimeout}, path: path, dial: dial}
}

// Status returns the app's status.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var s Status
	return s, c.do(ctx, http.MethodGet, "/v1/status", nil, &s)
}

// Show asks the app to bring its window to the front; it reports whether
// the app has a window to show (a headless one has none).
func (c *Client) Show(ctx context.Context) (bool, error) {
	var r struct {
		Shown bool `json:"shown"`
	}
	return r.Shown, c.do(ctx, http.MethodPost, "/v1/show", struct{}{}, &r)
}

// Quit asks the app to shut down; it returns once the app has started to,
// not when it has exited (see the instance file for that).
func (c *Client) Quit(ctx context.Context) error {
	var r struct {
		Quitting bool `json:"quitting"`
	}
	return c.do(ctx, http.MethodPost, "/v1/quit", struct{}{}, &r)
}

// Pending returns the pending questions, oldest first.
func (c *Client) Pending(ctx context.Context) ([]question.Question, error) {
	var qs []question.Question
	return qs, c.do(ctx, http.MethodGet, "/v1/pending", nil, &qs)
}

// PendingLinks returns the pending questions, oldest first, each with the
// link to its page in a browser when the app serves one.
func (c *Client) PendingLinks(ctx context.Context) ([]PendingQuestion, error) {
	var qs []PendingQuestion
	return qs, c.do(ctx, http.MethodGet, "/v1/pending", nil, &qs)
}

// Get returns one question and its result, if it ended.
func (c *Client) Get(ctx context.Context, id string) (Item, error) {
	var it Item
	return it, c.do(ctx, http.MethodGet, "/v1/questions/"+url.PathEscape(id), nil, &it)
}

// Answer gives the person's answer to question id.
func (c *Client) Answer(ctx context.Context, id string, req AnswerRequest) (Item, error) {
	var it Item
	return it, c.do(ctx, http.MethodPost, "/v1/questions/"+url.PathEscape(id)+"/answer", req, &it)
}

// Snooze hides question id until until.
func (c *Client) Snooze(ctx context.Context, id string, until time.Time) (Item, error) {
	var it Item
	return it, c.do(ctx, http.MethodPost, "/v1/questions/"+url.PathEscape(id)+"/snooze", SnoozeRequest{Until: until}, &it)
}

// HistoryQuery selects history rows; zero fields select everything.
type HistoryQuery struct {
	Outcomes     []string
	Verdicts     []string // verdict names, or "by_rule"
	Client, Kind string
	// Host is a remote host's name, "." for this machine, "" for all.
	Host         string
	Search       string
	Since, Until time.Time
	Limit        int
	Cursor       string
}

// History returns one page of the history, newest first.
func (c *Client) History(ctx context.Context, hq HistoryQuery) (HistoryPage, error) {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("outcome", strings.Join(hq.Outcomes, ","))
	set("verdict", strings.Join(hq.Verdicts, ","))
	set("client", hq.Client)
	set("host", hq.Host)
	set("kind", hq.Kind)
	set("search", hq.Search)
	set("cursor", hq.Cursor)
	if !hq.Since.IsZero() {
		v.Set("since", hq.Since.Format(time.RFC3339))
	}
	if !hq.Until.IsZero() {
		v.Set("until", hq.Until.Format(time.RFC3339))
	}
	if hq.Limit > 0 {
		v.Set("limit", fmt.Sprint(hq.Limit))
	}
	var p HistoryPage
	return p, c.do(ctx, http.MethodGet, "/v1/history?"+v.Encode(), nil, &p)
}

func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	resp, err := c.send(ctx, c.hc, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("read reply: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return apiErrorOf(resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("decode reply: %w", err)
	}
	return nil
}

// send makes one call through hc and returns the response, whatever its
// status; the caller closes its body. It blocks until the response's
// headers arrive, hc's Timeout passes or ctx ends.
func (c *Client) send(ctx context.Context, hc *http.Client, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://asktray"+path, rd)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		var ne *net.OpError
		if errors.As(err, &ne) && ne.Op == "dial" {
			return nil, fmt.Errorf("%w: nothing answers on %s", ErrNoApp, c.path)
		}
		return nil, fmt.Errorf("call app: %w", err)
	}
	return resp, nil
}

// apiErrorOf is the APIError of an error response with status and body b.
func apiErrorOf(status int, b []byte) *APIError {
	var ae apiError
	if json.Unmarshal(b, &ae) != nil || ae.Error == "" {
		ae.Error = strings.TrimSpace(string(b))
	}
	return &APIError{Status: status, Code: ae.Code, Field: ae.Field, Message: ae.Error}
}

// Dial connects to the control socket (the pipe on Windows) for path and,
// on Windows, checks that a process of this user serves it. It blocks until
// the app accepts, ctx ends or a second passes.
func Dial(ctx context.Context, path string) (net.Conn, error) { return dialControl(ctx, path) }
