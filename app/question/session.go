package question

import "time"

// maxSessions bounds how many client sessions the Broker remembers the start of.
const maxSessions = 4096

// sessionKey keys a client session: its client's name and session id.
func sessionKey(c Client) string { return c.Name + "\x00" + c.SessionID }

// noteSession records q's session as asking since q was created, unless it
// was seen earlier. b.mu must be held.
func (b *Broker) noteSession(q Question) {
	if q.Client.SessionID == "" {
		return
	}
	if b.sessions == nil {
		b.sessions = make(map[string]time.Time)
	}
	k := sessionKey(q.Client)
	if t, ok := b.sessions[k]; ok && !q.Created.Before(t) {
		return
	}
	if len(b.sessions) >= maxSessions {
		for old := range b.sessions { // forget one: a session that old names itself by id again
			delete(b.sessions, old)
			break
		}
	}
	b.sessions[k] = q.Created
}

// SessionStart returns when client c's session was first seen asking (the
// creation of its first question made pending since the Broker started),
// or the zero time when c has no session id or the Broker has not seen it.
// The dialog, the question page and the history name a session by it
// ("session in payments-service since 14:02"). It does not block; any
// goroutine may call it.
func (b *Broker) SessionStart(c Client) time.Time {
	if c.SessionID == "" {
		return time.Time{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[sessionKey(c)]
}
