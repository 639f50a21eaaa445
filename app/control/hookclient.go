package control

import (
	"context"
	"errors"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/hookclient"
)

// ErrNoAck means the app took the hook's connection but did not acknowledge
// the request within hook.Handshake: it is stopped (SIGSTOP), stuck or too
// busy, and the hook steps aside.
var ErrNoAck = hookclient.ErrNoAck

// replySlack is how long past the request's wait the client waits for the
// app's reply.
const replySlack = hookclient.ReplySlack

// Hook sends an agent's hook call and returns the app's decision
// (hookclient.Call, whose bounds it keeps: at most hook.Handshake until the
// app acknowledges, then the request's wait and replySlack). An error
// response is an *APIError. Any goroutine may call it.
func (c *Client) Hook(ctx context.Context, req hook.Request) (hook.Reply, error) {
	rep, err := hookclient.Call(ctx, c.dial, c.path, req)
	if se := (*hookclient.StatusError)(nil); errors.As(err, &se) {
		return rep, apiErrorOf(se.Status, se.Body)
	}
	return rep, err
}
