package stdioproxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// Header names of the Streamable HTTP transport.
const (
	headerSession  = "Mcp-Session-Id"
	headerVersion  = "Mcp-Protocol-Version"
	headerMethod   = "Mcp-Method"
	headerName     = "Mcp-Name"
	getRetryPeriod = 5 * time.Second // at most one standalone GET per period
	deleteTimeout  = 2 * time.Second
)

// response is the outcome of one POST besides the messages it carried.
type response struct {
	status  int
	session string // the Mcp-Session-Id header
	body    []byte // the start of the body of a reply other than 2xx
}

// forward POSTs m and writes what the server answers to out. When the
// session is gone (404), it starts a new one and sends m once more.
func (c *conn) forward(m *message) {
	isInit := m.method == "initialize" && m.isRequest()
	ctx := c.ctx
	if m.protocolVersion != "" && m.isRequest() {
		var done func()
		ctx, done = c.modern.track(c.ctx, m)
		defer done()
	}
	for attempt := 0; ; attempt++ {
		sid, version, _ := c.session()
		if isInit {
			sid, version = "", ""
		}
		var got reply // the response to m, when it came
		resp, err := c.post(ctx, m, sid, version, func(msg []byte) {
			if r := readReply(msg); r.answers(m) {
				got = r
			}
			c.write(msg)
		})
		if isInit && resp.status == http.StatusOK && got.parsed && !got.isError {
			c.setSession(resp.session, got.version) // even when stopping: to DELETE it
		}
		if ctx.Err() != nil {
			return // stopping, or the client cancelled m: it wants no answer
		}
		if attempt == 0 && sid != "" && m.protocolVersion == "" &&
			resp.status == http.StatusNotFound && !readReply(resp.body).parsed {
			c.log.Info("the server lost the session; starting a new one", "session", sid)
			if err := c.reinit(sid); err != nil {
				c.fail(m, fmt.Sprintf("the asktray app lost the session and a new one could not be started: %v", err))
				return
			}
			continue
		}
		c.finish(m, resp, got, err)
		return
	}
}

// finish reports a POST of m that failed or ended without the response m
// expects: to the client as an error response, or in the log.
func (c *conn) finish(m *message, resp response, got reply, err error) {
	switch {
	case resp.status == 0:
		c.fail(m, fmt.Sprintf("cannot reach the asktray app at %s: %v", c.p.URL, err))
	case resp.status >= 300:
		if readReply(resp.body).answers(m) {
			c.write(resp.body) // a JSON-RPC error sent with an HTTP error status
			return
		}
		c.fail(m, fmt.Sprintf("the asktray app answered HTTP %d %s: %s", resp.status, http.StatusText(resp.status), first(resp.body, 200)))
	case resp.status == http.StatusOK && m.isRequest() && !got.parsed:
		msg := "the asktray app ended its reply without an answer"
		if err != nil {
			msg += ": " + err.Error()
		}
		c.fail(m, msg)
	case err != nil:
		c.log.Warn("reading the reply failed", "method", m.method, "err", err)
	}
}

// post POSTs m with the given session and calls emit for each message of
// the reply as it arrives. Its response has status 0 when no reply came.
func (c *conn) post(ctx context.Context, m *message, sid, version string, emit func([]byte)) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.p.URL, bytes.NewReader(m.raw))
	if err != nil {
		return response{}, fmt.Errorf("build request: %w", err)
	}
	if m.protocolVersion != "" {
		// 2026-07-28 and later: no session; the version goes in a header too.
		sid, version = "", m.protocolVersion
		req.Header.Set(headerMethod, m.method)
		if m.name != "" && isHeaderSafe(m.name) {
			req.Header.Set(headerName, m.name)
		}
	}
	c.setHeaders(req.Header, sid, version)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	out := response{status: resp.StatusCode, session: resp.Header.Get(headerSession)}
	switch {
	case resp.StatusCode == http.StatusOK:
		return out, readBody(resp, emit)
	case resp.StatusCode >= 200 && resp.StatusCode < 300: // 202 Accepted, 204 No Content
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return out, nil
	default:
		out.body, err = io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return out, err
	}
}

// setHeaders sets the headers every request to the server carries.
func (c *conn) setHeaders(h http.Header, sid, version string) {
	if c.p.Token != "" {
		h.Set("Authorization", "Bearer "+c.p.Token)
	}
	if sid != "" {
		h.Set(headerSession, sid)
	}
	if version != "" {
		h.Set(headerVersion, version)
	}
}

// readBody calls emit for the JSON body or for each event of an SSE body.
func readBody(resp *http.Response, emit func([]byte)) error {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "text/event-stream":
		return readSSE(resp.Body, emit)
	case "application/json":
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return fmt.Errorf("read reply: %w", err)
		}
		if len(bytes.TrimSpace(b)) > 0 {
			emit(b)
		}
		return nil
	default:
		return fmt.Errorf("unexpected content type %q", resp.Header.Get("Content-Type"))
	}
}

// readSSE calls emit with the data of each event of an SSE stream, as the
// events arrive, until the stream ends. Data lines of one event are joined
// with "\n"; events without data and an unfinished last event are skipped.
func readSSE(r io.Reader, emit func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	hasData := false
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read event stream: %w", err)
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) == 0 {
			if hasData && len(bytes.TrimSpace(data)) > 0 {
				emit(data)
			}
			data, hasData = data[:0], false
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue // event, id, retry, and comments (empty field)
		}
		if hasData {
			data = append(data, '\n')
		}
		data = append(data, bytes.TrimPrefix(value, []byte(" "))...)
		hasData = true
	}
}

// session returns the current session id, protocol version and generation.
func (c *conn) session() (sid, version string, gen int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID, c.version, c.gen
}

// setSession records a new session, moves the standalone GET stream to it,
// and starts that stream if none runs.
func (c *conn) setSession(sid, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sid != c.sessionID {
		c.gen++
		if c.stopGet != nil {
			c.stopGet()
		}
		select {
		case c.getWake <- struct{}{}:
		default:
		}
	}
	c.sessionID = sid
	if version != "" {
		c.version = version
	}
	if sid != "" && !c.listening {
		c.listening = true
		c.wg.Go(c.listen)
	}
}

// reinit replaces the lost session old with a new one by replaying the
// client's initialize request and a notifications/initialized. It does
// nothing when another goroutine has already replaced old.
func (c *conn) reinit(old string) error {
	c.reinitMu.Lock()
	defer c.reinitMu.Unlock()
	c.mu.Lock()
	cur, raw := c.sessionID, c.initMsg
	c.mu.Unlock()
	if cur != old {
		return nil
	}
	if raw == nil {
		return errors.New("no initialize request to replay")
	}
	m := parseMessage(raw)
	var got reply
	resp, err := c.post(c.ctx, m, "", "", func(msg []byte) {
		if r := readReply(msg); r.answers(m) {
			got = r
		}
	})
	switch {
	case err != nil:
		return fmt.Errorf("replay initialize: %w", err)
	case resp.status != http.StatusOK || !got.parsed || got.isError || resp.session == "":
		return fmt.Errorf("replay initialize: HTTP %d %s", resp.status, first(resp.body, 200))
	}
	version := got.version
	if version == "" {
		_, version, _ = c.session()
	}
	note := parseMessage([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	resp2, err := c.post(c.ctx, note, resp.session, version, func([]byte) {})
	if err != nil {
		return fmt.Errorf("send notifications/initialized: %w", err)
	}
	if resp2.status >= 300 {
		return fmt.Errorf("send notifications/initialized: HTTP %d", resp2.status)
	}
	c.setSession(resp.session, version)
	return nil
}

// listen keeps the optional standalone GET stream open while Run runs, so
// that messages the server sends outside any request reach the client. It
// stops for good when the server answers anything but an event stream. When
// the stream drops it reconnects at most once per getRetryPeriod, or at once
// when the session changes.
func (c *conn) listen() {
	var last time.Time
	lastGen := -1
	for c.ctx.Err() == nil {
		_, _, gen := c.session()
		if gen == lastGen { // the stream dropped: back off, unless the session changes
			t := time.NewTimer(time.Until(last.Add(getRetryPeriod)))
			select {
			case <-t.C:
			case <-c.getWake:
				t.Stop()
			case <-c.ctx.Done():
				t.Stop()
				return
			}
		}
		select {
		case <-c.getWake: // already seen: this attempt uses the current session
		default:
		}
		ctx, stop := context.WithCancel(c.ctx)
		c.mu.Lock()
		sid, version, gen := c.sessionID, c.version, c.gen
		c.stopGet = stop
		c.mu.Unlock()
		lastGen, last = gen, time.Now()
		ok, err := c.stream(ctx, sid, version)
		stop()
		if c.ctx.Err() != nil {
			return
		}
		if !ok {
			c.mu.Lock()
			if c.gen == gen {
				c.listening = false
				c.mu.Unlock()
				c.log.Debug("no standalone event stream", "err", err)
				return
			}
			c.mu.Unlock()
			continue
		}
		c.log.Info("the standalone event stream ended", "err", err)
	}
}

// stream opens the standalone GET stream of session sid and writes its
// messages to out until it ends. ok is false when the server answered with
// anything but an event stream.
func (c *conn) stream(ctx context.Context, sid, version string) (ok bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.p.URL, nil)
	if err != nil {
		return false, fmt.Errorf("build request: %w", err)
	}
	c.setHeaders(req.Header, sid, version)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return true, err // not an answer: try again later
	}
	defer resp.Body.Close()
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || mt != "text/event-stream" {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return false, fmt.Errorf("HTTP %d %s", resp.StatusCode, mt)
	}
	return true, readSSE(resp.Body, c.write)
}

// endSession asks the server to end the session, waiting up to deleteTimeout.
func (c *conn) endSession() {
	sid, version, _ := c.session()
	if sid == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.p.URL, nil)
	if err != nil {
		return
	}
	c.setHeaders(req.Header, sid, version)
	resp, err := c.hc.Do(req)
	if err != nil {
		c.log.Info("ending the session failed", "err", err)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// isHeaderSafe reports whether s can be sent as a header value unencoded.
func isHeaderSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
