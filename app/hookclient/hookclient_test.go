package hookclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps the hook's client small: every agent hook call starts a
// process that links it (cmd/asktray-hook), so neither it nor what it
// imports links net/http (and the TLS stack behind it).
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/hook", m+"app/procfs", m+"app/ellipsis", "golang.org/x/sys")
	testkit.ImportsNone(t, ".", "net/http", "crypto/tls")
}

// TestTransport_ChecksTheServer: a checked connection is refused, as
// ErrWrongServer, when the check refuses the serving pid, and no request
// reaches the server; where the kernel does not name it, every checked
// connection fails.
func TestTransport_ChecksTheServer(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatalf("listen on a unix socket: %v", err)
	}
	reached := make(chan struct{}, 8)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached <- struct{}{}
		_, _ = w.Write([]byte(`{"registered":true}` + "\n" + `{}` + "\n"))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	dial := func(ctx context.Context) (net.Conn, error) { return Dial(ctx, sock) }

	var seen int
	refuse := func(pid int) error { seen = pid; return errors.New("not the app") }
	_, err = Call(context.Background(), CheckedDial(dial, refuse), sock, hook.Request{WaitMS: 1000})
	if !errors.Is(err, ErrWrongServer) {
		t.Fatalf("refused server: err %v, want ErrWrongServer", err)
	}
	if ServerPIDs && seen != os.Getpid() {
		t.Errorf("the check saw pid %d, want this process (%d)", seen, os.Getpid())
	}
	if len(reached) != 0 {
		t.Error("a request reached a server the check refused")
	}

	accept := func(int) error { return nil }
	_, err = Call(context.Background(), CheckedDial(dial, accept), sock, hook.Request{WaitMS: 1000})
	if ServerPIDs && err != nil {
		t.Fatalf("accepted server: %v", err)
	}
	if !ServerPIDs && !errors.Is(err, ErrWrongServer) {
		t.Fatalf("no server pid here: err %v, want ErrWrongServer", err)
	}
}

// TestCall_NoApp: nothing on the socket is ErrNoApp, at once.
func TestCall_NoApp(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "none")
	dial := func(ctx context.Context) (net.Conn, error) { return Dial(ctx, sock) }
	if _, err := Call(context.Background(), CheckedDial(dial, nil), sock, hook.Request{WaitMS: 1000}); !errors.Is(err, ErrNoApp) {
		t.Fatalf("err %v, want ErrNoApp", err)
	}
}
