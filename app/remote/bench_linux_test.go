package remote_test

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookclient"
	"github.com/asktray/asktray/app/remote"
)

// instantAsker registers each request and allows it at once, so that a
// round trip measures the channel alone.
type instantAsker struct{}

func (instantAsker) Handle(_ context.Context, _ hook.Request, registered func()) hook.Reply {
	registered()
	return hook.Reply{Behavior: hook.Allow}
}

// BenchmarkRoundTrip is one hook call (POST /v2/hook: request, the
// acknowledgement of a registered question, the reply), side by side:
// local, to the control socket as a hook on this machine makes it, and
// ssh, from the remote host's socket through a real sshd on loopback and
// the app's socket for the host. The app answers at once.
func BenchmarkRoundTrip(b *testing.B) {
	req := hook.Request{Payload: hook.Payload{Agent: hook.ClaudeCode, Event: hook.PermissionRequest, SessionID: "s", ToolName: "Bash"}, WaitMS: 60000}
	call := func(b *testing.B, sock, key string) {
		dial := func(ctx context.Context) (net.Conn, error) { return hookclient.Dial(ctx, sock) }
		for b.Loop() {
			rep, err := hookclient.CallKeyed(context.Background(), dial, sock, key, req)
			if err != nil || rep.Behavior != hook.Allow {
				b.Fatalf("%+v %v", rep, err)
			}
		}
	}
	b.Run("local", func(b *testing.B) {
		s := &control.Server{Hooks: instantAsker{}, Status: func() control.Status { return control.Status{} }}
		sock := filepath.Join(b.TempDir(), "control.sock")
		if err := s.Listen(sock); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Shutdown(context.Background()) })
		call(b, sock, "")
	})
	b.Run("ssh", func(b *testing.B) {
		sock, key := remote.BenchHost(b, instantAsker{})
		call(b, sock, key)
	})
}
