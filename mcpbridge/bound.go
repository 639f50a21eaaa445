package mcpbridge

import (
	"fmt"
	"sync"

	"github.com/asktray/asktray/app/question"
)

// owner names who asks: the MCP session, or for a call without one (a
// client on a sessionless protocol) the client's name and, when the request
// carries it in _meta.cwd, its working directory. Re-attaching and the
// pending limit are bound to it.
//
// Without a session, the asker is the idempotency key the call carries
// (with the client's name); a call with neither is its own asker, so that
// no other caller, naming the same client and asking the same thing, can
// re-attach to its question and take its answer.
func (c caller) owner() string {
	switch {
	case c.client.SessionID != "":
		return "session\x00" + c.client.SessionID
	case c.idemKey != "":
		return "key\x00" + c.client.Name + "\x00" + c.idemKey
	case c.callOwner != "":
		return c.callOwner
	}
	return "client\x00" + c.client.Name + "\x00" + c.cwd
}

// limitOwner is whose pending questions the pending limit counts: the
// session, or for a caller without one every sessionless caller of that
// client name (see ownedBy).
func (c caller) limitOwner() string {
	if c.client.SessionID != "" {
		return "session\x00" + c.client.SessionID
	}
	return "client\x00" + c.client.Name
}

// ownedBy reports whether q was asked by the session of c, or, for a
// caller without a session, by a sessionless client of the same name.
// (The working directory is not kept with a question, so sessionless
// clients of one name share their limit.)
func ownedBy(q question.Question, c caller) bool {
	if c.client.SessionID != "" {
		return q.Client.SessionID == c.client.SessionID
	}
	return q.Client.SessionID == "" && q.Client.Name == c.client.Name
}

// pendingLimit bounds the questions (and, separately, the notices) one
// asker has pending, so that one client cannot flood the person with
// dialogs. It is safe for concurrent use.
type pendingLimit struct {
	mu       sync.Mutex
	reserved map[string]int // asks between the count and the broker's Ask, per owner and kind
}

// reserve counts c's pending questions of q's sort (notices or the rest)
// plus those being asked right now, and reserves a place when there are
// fewer than max. The caller must call the returned release once its ask
// is in the broker (or failed). An error is the isError the agent gets.
func (l *pendingLimit) reserve(b *question.Broker, c caller, notice bool, max int) (release func(), err error) {
	key := fmt.Sprintf("%s\x00%v", c.limitOwner(), notice)
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.reserved[key]
	for _, q := range b.Pending() {
		if (q.Kind == question.KindNotice) == notice && ownedBy(q, c) {
			n++
		}
	}
	if n >= max {
		what := "questions"
		if notice {
			what = "notices"
		}
		return nil, argErrorf("too many pending %s: this session has %d pending, the limit (max_pending_per_session) is %d; "+
			"wait for their answers with get_answer, or withdraw ones you no longer need with cancel_question, before asking more", what, n, max)
	}
	if l.reserved == nil {
		l.reserved = map[string]int{}
	}
	l.reserved[key]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.reserved[key]--; l.reserved[key] <= 0 {
			delete(l.reserved, key)
		}
	}, nil
}

// MaxPending returns how many questions one client session may have
// pending now. Any goroutine may call it.
func (b *Bridge) MaxPending() int { return b.maxPending() }

func (b *Bridge) maxPending() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.cfg.MaxPending
}
