package app

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/mcpbridge"
)

// serveTest serves h with timeouts t on a loopback port until the test ends.
func serveTest(t *testing.T, h http.Handler, to httpTimeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := newHTTPServer(h, to)
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestStalledHeaderIsCut opens a connection to a server with the app's
// timeouts and sends a request whose headers never end: the server closes
// it within seconds instead of holding it open.
func TestStalledHeaderIsCut(t *testing.T) {
	t.Parallel()
	addr := serveTest(t, http.NotFoundHandler(), defaultHTTPTimeouts)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: "); err != nil {
		t.Fatal(err)
	}
	limit := defaultHTTPTimeouts.readHeader + 3*time.Second
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	_, err = io.ReadAll(conn)
	took := time.Since(start)
	if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
		t.Fatalf("the server still held the stalled connection after %v", took)
	}
	if took > limit || defaultHTTPTimeouts.readHeader > 10*time.Second {
		t.Fatalf("stalled request closed after %v (read-header timeout %v)", took, defaultHTTPTimeouts.readHeader)
	}
}

// TestLongCallOutlivesReadTimeout serves the MCP endpoint with a read
// timeout much shorter than a person takes to answer, and answers a
// blocking ask_text several read timeouts later: the agent's call still
// gets the answer, not a cancellation.
func TestLongCallOutlivesReadTimeout(t *testing.T) {
	t.Parallel()
	broker := question.NewBroker(question.Config{})
	t.Cleanup(func() { _ = broker.Close() })
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	bridge := mcpbridge.New(mcpbridge.Config{Broker: broker, Version: "test", DefaultWindow: 30 * time.Second})
	to := httpTimeouts{readHeader: 200 * time.Millisecond, read: 300 * time.Millisecond, idle: 10 * time.Second}
	addr := serveTest(t, bridge.HTTPHandler(mcpbridge.HTTPOptions{Token: token}), to)

	c := mcp.NewClient(&mcp.Implementation{Name: "long-call", Version: "1.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: &recorder{token: token}}, MaxRetries: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	answered := make(chan error, 1)
	go func() {
		for len(broker.Pending()) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(5 * to.read)
		answered <- broker.Answer(broker.Pending()[0].ID, question.Response{Action: question.Accept, Value: []byte(`"late"`), Via: question.ViaDialog})
	}()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: mcpbridge.ToolAskText, Arguments: map[string]any{"question": "q"}})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if err := <-answered; err != nil {
		t.Fatalf("answer: %v", err)
	}
	out, _ := res.StructuredContent.(map[string]any)
	if res.IsError || out["status"] != "answered" || out["answer"] != "late" {
		t.Fatalf("the call outliving the read timeout got %+v", out)
	}
}
