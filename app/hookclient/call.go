package hookclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// Call sends an agent's hook call over a connection from dial (to the
// control socket at where, which names it in errors) and returns the app's
// decision. It blocks, never without a bound: at most hook.Handshake until
// the app acknowledges the request (POST /v2/hook's first line, once the
// question is registered), failing with an error wrapping ErrNoAck without
// it; then until the decision, at most the request's wait (req.WaitMS; 0
// means hook.MaxDeadline) and ReplySlack, or ctx's end. An app older than
// the acknowledgement, which does not serve /v2/hook, is asked on /v1/hook
// with the overall bound only. A dial that fails is ErrNoApp, an error
// response a *StatusError. Any goroutine may call it.
func Call(ctx context.Context, dial Dialer, where string, req hook.Request) (hook.Reply, error) {
	return CallKeyed(ctx, dial, where, "", req)
}

// CallKeyed is Call with a key sent as a bearer token (a remote host's key,
// to the desktop's app through SSH; see app/remote); "" sends none. It
// blocks like Call, and with a key also fails once the reply stream brings
// no byte for hook.RemoteSilence (the desktop writes a heartbeat).
func CallKeyed(ctx context.Context, dial Dialer, where, key string, req hook.Request) (hook.Reply, error) {
	wait := time.Duration(req.WaitMS) * time.Millisecond
	if wait <= 0 || wait > hook.MaxDeadline {
		wait = hook.MaxDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, wait+ReplySlack)
	defer cancel()
	body, err := json.Marshal(req)
	if err != nil {
		return hook.Reply{}, fmt.Errorf("encode request: %w", err)
	}
	rep, err := acked(ctx, dial, where, key, body)
	if !errors.Is(err, errOldApp) || key != "" {
		return rep, err
	}
	return oldHook(ctx, dial, where, body)
}

// errOldApp means the app does not serve POST /v2/hook.
var errOldApp = errors.New("the app does not serve /v2/hook")

// acked is Call on POST /v2/hook. It blocks like Call.
func acked(ctx context.Context, dial Dialer, where, key string, body []byte) (hook.Reply, error) {
	var rep hook.Reply
	hctx, hcancel := context.WithCancelCause(ctx)
	defer hcancel(nil)
	handshake := time.AfterFunc(hook.Handshake, func() { hcancel(ErrNoAck) })
	defer handshake.Stop()
	noAck := func(err error) error {
		if errors.Is(context.Cause(hctx), ErrNoAck) {
			return ErrNoAck
		}
		return err
	}
	conn, status, rd, err := post(hctx, dial, where, "/v2/hook", key, body)
	if err != nil {
		return rep, noAck(err)
	}
	defer conn.Close()
	switch status {
	case 200:
	case 404, 405:
		return rep, errOldApp
	default:
		b, _ := io.ReadAll(rd)
		return rep, noAck(&StatusError{Status: status, Body: b})
	}
	if key != "" {
		// A remote host's desktop writes a heartbeat (hook.Heartbeat).
		rd = &silenceReader{r: rd, conn: conn, limit: hook.RemoteSilence}
	}
	dec := json.NewDecoder(rd)
	var ack hook.Ack
	if err := dec.Decode(&ack); err != nil {
		return rep, noAck(fmt.Errorf("read the acknowledgement: %w", err))
	}
	if !handshake.Stop() || !ack.Registered {
		return rep, ErrNoAck
	}
	if err := dec.Decode(&rep); err != nil {
		return hook.Reply{}, fmt.Errorf("read reply: %w", err)
	}
	return rep, nil
}

// silenceReader reads r, failing when conn brings no byte for limit.
type silenceReader struct {
	r     io.Reader
	conn  net.Conn
	limit time.Duration
}

func (s *silenceReader) Read(p []byte) (int, error) {
	_ = s.conn.SetReadDeadline(time.Now().Add(s.limit))
	n, err := s.r.Read(p)
	if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
		err = fmt.Errorf("no heartbeat from the desktop for %s: %w", s.limit, err)
	}
	return n, err
}

// oldHook is Call on POST /v1/hook, which answers with the decision alone.
// It blocks until the reply or ctx's end.
func oldHook(ctx context.Context, dial Dialer, where string, body []byte) (hook.Reply, error) {
	var rep hook.Reply
	conn, status, rd, err := post(ctx, dial, where, "/v1/hook", "", body)
	if err != nil {
		return rep, err
	}
	defer conn.Close()
	b, err := io.ReadAll(rd)
	if err != nil {
		return rep, fmt.Errorf("read reply: %w", err)
	}
	if status != 200 {
		return rep, &StatusError{Status: status, Body: b}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return rep, fmt.Errorf("decode reply: %w", err)
	}
	return rep, nil
}

// post dials, sends body to path as an HTTP/1.0 POST (so that the app ends
// its streamed answer by closing the connection, with no chunked framing)
// and reads the response's status and headers. It returns the connection,
// which the caller closes, and a reader of the body (at most maxReply
// bytes). The connection is closed when ctx ends, which ends any read.
func post(ctx context.Context, dial Dialer, where, path, key string, body []byte) (net.Conn, int, io.Reader, error) {
	conn, err := dial(ctx)
	if err != nil {
		if ne := (*net.OpError)(nil); errors.As(err, &ne) && ne.Op == "dial" {
			return nil, 0, nil, fmt.Errorf("%w: nothing answers on %s", ErrNoApp, where)
		}
		return nil, 0, nil, fmt.Errorf("call app: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	fail := func(err error) (net.Conn, int, io.Reader, error) {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			return nil, 0, nil, fmt.Errorf("call app: %w", context.Cause(ctx))
		}
		return nil, 0, nil, fmt.Errorf("call app: %w", err)
	}
	head := "POST " + path + " HTTP/1.0\r\nHost: asktray\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n"
	if key != "" {
		head += "Authorization: Bearer " + key + "\r\n"
	}
	head += "\r\n"
	if _, err := conn.Write(append([]byte(head), body...)); err != nil {
		return fail(err)
	}
	br := bufio.NewReader(io.LimitReader(conn, maxReply))
	status, length, err := readHead(br)
	if err != nil {
		return fail(err)
	}
	var rd io.Reader = br
	if length >= 0 {
		rd = io.LimitReader(br, length)
	}
	return conn, status, rd, nil
}

// readHead reads an HTTP/1.x response's status line and headers from br and
// returns the status and the Content-Length (-1 when none is given).
func readHead(br *bufio.Reader) (int, int64, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return 0, 0, fmt.Errorf("read the status line: %w", err)
	}
	proto, rest, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
	code, _, _ := strings.Cut(rest, " ")
	status, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil {
		return 0, 0, fmt.Errorf("not an HTTP response: %q", line)
	}
	length := int64(-1)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return 0, 0, fmt.Errorf("read the headers: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return status, length, nil
		}
		k, v, _ := strings.Cut(line, ":")
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "content-length":
			if length, err = strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil || length < 0 {
				return 0, 0, fmt.Errorf("bad Content-Length %q", v)
			}
		case "transfer-encoding":
			return 0, 0, fmt.Errorf("a %s body answers an HTTP/1.0 request", strings.TrimSpace(v))
		}
	}
}
