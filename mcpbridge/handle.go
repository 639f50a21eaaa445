package mcpbridge

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// MetaIdempotencyKey is the _meta key by which a client on protocol
// 2026-07-28 or later, which has no session, names one ask so that
// re-issuing the call (after its response stream dropped, say) re-attaches
// to the same question instead of opening a second dialog. It must be a
// value the client chose at random, at least MinIdempotencyKey characters.
const MetaIdempotencyKey = "io.github.asktray/idempotency-key"

// MinIdempotencyKey is the shortest idempotency key accepted.
const MinIdempotencyKey = 16

// handles mints and checks question handles: what a caller without a
// session (MCP 2026-07-28) gets as its question_id. A handle is the
// question's id, a dot, and a MAC of the id under a key that never leaves
// this process, so only the asker, who was given it, holds it; the bare id
// (which 'asktray pending --json' lists) opens nothing. It is safe for
// concurrent use: the key is written once, by newHandles.
type handles struct{ key [32]byte }

func newHandles() *handles {
	h := &handles{}
	_, _ = rand.Read(h.key[:]) // crypto/rand.Read never returns an error.
	return h
}

// mac is the second half of id's handle: 128 bits, base64url.
func (h *handles) mac(id string) string {
	m := hmac.New(sha256.New, h.key[:])
	m.Write([]byte(id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// mint returns id's handle.
func (h *handles) mint(id string) string { return id + "." + h.mac(id) }

// open returns the question id of handle, and whether handle is one this
// process minted. Question ids never hold a dot.
func (h *handles) open(handle string) (string, bool) {
	id, mac, ok := strings.Cut(handle, ".")
	if !ok || id == "" {
		return "", false
	}
	return id, hmac.Equal([]byte(mac), []byte(h.mac(id)))
}

// ref is how c names question id in results: the bare id for a caller
// with a session (whose session owns it), the handle for one without.
func (b *Bridge) ref(c caller, id string) string {
	if c.client.SessionID != "" {
		return id
	}
	return b.handles.mint(id)
}

// resolve returns the question c names by ref, when c may read, wait on or
// cancel it: ref is a handle this process minted for a question asked
// through the bridge, or c has a session and ref is the id of a question
// that session asked. Anything else is as unknown as no question at all.
func (b *Bridge) resolve(c caller, ref string) (string, bool) {
	if id, ok := b.handles.open(ref); ok {
		return id, b.attach.asked(id)
	}
	if c.client.SessionID != "" && b.attach.owns(ref, c.owner()) {
		return ref, true
	}
	return "", false
}

// idempotencyKey reads MetaIdempotencyKey from a call's _meta value v; an
// error names the key and the limit.
func idempotencyKey(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok || len(s) < MinIdempotencyKey || len(s) > 256 {
		return "", argErrorf("_meta[%q]: must be a string of %d to 256 characters chosen at random", MetaIdempotencyKey, MinIdempotencyKey)
	}
	return s, nil
}

// perCallOwner names the asker of one call without a session and without
// an idempotency key: nobody else, not even a re-issue of the same call.
func perCallOwner() string { return fmt.Sprintf("call\x00%x", randomBytes()) }

func randomBytes() []byte {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return b[:]
}
