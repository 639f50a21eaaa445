package control

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
)

func TestCheckPeer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		p    *peer
		ok   bool
	}{
		{"same uid", &peer{user: "uid 1000"}, true},
		{"other uid", &peer{user: "uid 1001"}, false},
		{"root is another user too", &peer{user: "uid 0"}, false},
		{"same SID", &peer{user: "S-1-5-21-1-2-3-1000"}, false},
		{"unknown peer", nil, false},
		{"uid unreadable", &peer{user: "uid 1000", err: errors.New("no SO_PEERCRED")}, false},
		{"nobody named", &peer{}, false},
	}
	for _, tc := range cases {
		err := checkPeer(tc.p, "uid 1000")
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, errOtherUser)) {
			t.Errorf("%s: checkPeer = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// The helper process calls the socket named by peerHelperEnv: POST with
// peerBodyEnv to the path in peerPathEnv if both are set, GET that path if
// only it is, else GET /v1/status.
const (
	peerHelperEnv = "ASKTRAY_TEST_PEER_SOCKET"
	peerPathEnv   = "ASKTRAY_TEST_PEER_PATH"
	peerBodyEnv   = "ASKTRAY_TEST_PEER_BODY"
)

// TestPeerHelperProcess is not a test: other tests run the test binary as
// another user, without a terminal or on a pseudo-terminal, with
// peerHelperEnv set, and this makes one raw call on the socket and prints
// the status code and body.
func TestPeerHelperProcess(t *testing.T) {
	sock := os.Getenv(peerHelperEnv)
	if sock == "" {
		return
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return dialControl(ctx, sock)
	}}}
	var resp *http.Response
	var err error
	if path, body := os.Getenv(peerPathEnv), os.Getenv(peerBodyEnv); path != "" && body == "" {
		resp, err = hc.Get("http://asktray" + path)
	} else if path != "" {
		resp, err = hc.Post("http://asktray"+path, "application/json", strings.NewReader(os.Getenv(peerBodyEnv)))
	} else {
		resp, err = hc.Get("http://asktray/v1/status")
	}
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error())
		os.Exit(0)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	os.Stdout.WriteString(resp.Status + " " + string(b))
	os.Exit(0)
}
