package stdioproxy

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
)

// The _meta keys by which a request of protocol 2026-07-28 says who sends
// it and what it can do (SEP-2575); each request carries them, as no
// initialize remembers them.
const (
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// modern is what the proxy knows of a client on protocol 2026-07-28 or
// later: the per-request _meta of its latest request, and its requests in
// flight. It is safe for concurrent use.
type modernClient struct {
	mu       sync.Mutex
	meta     map[string]json.RawMessage // the version, client info and capabilities last sent
	inflight map[string]context.CancelFunc
}

// remember keeps the per-request _meta of a request that carried it.
func (s *modernClient) remember(raw []byte) {
	var env struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return
	}
	keep := map[string]json.RawMessage{}
	for _, k := range []string{metaProtocolVersion, metaClientInfo, metaClientCapabilities} {
		if v, ok := env.Params.Meta[k]; ok {
			keep[k] = v
		}
	}
	s.mu.Lock()
	s.meta = keep
	s.mu.Unlock()
}

// known reports whether the client has sent a request of 2026-07-28 or later.
func (s *modernClient) known() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta != nil
}

// complete gives m, a request sent without the per-request _meta by a
// client that speaks 2026-07-28 (the Go SDK sends ping so), the _meta of
// that client's latest request, so that the app serves it at the client's
// revision instead of looking for a session that never was. It reports
// whether it changed m.
func (s *modernClient) complete(m *message) bool {
	s.mu.Lock()
	meta := s.meta
	s.mu.Unlock()
	if meta == nil || m.protocolVersion != "" || !m.isRequest() {
		return false
	}
	var env map[string]json.RawMessage
	if json.Unmarshal(m.raw, &env) != nil {
		return false
	}
	params := map[string]json.RawMessage{}
	if p, ok := env["params"]; ok && json.Unmarshal(p, &params) != nil {
		return false
	}
	have := map[string]json.RawMessage{}
	if mm, ok := params["_meta"]; ok && json.Unmarshal(mm, &have) != nil {
		return false
	}
	maps.Copy(have, meta)
	var err error
	if params["_meta"], err = json.Marshal(have); err != nil {
		return false
	}
	if env["params"], err = json.Marshal(params); err != nil {
		return false
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return false
	}
	m.raw = raw
	_ = json.Unmarshal(meta[metaProtocolVersion], &m.protocolVersion)
	return m.protocolVersion != ""
}

// track gives the POST of modern request m its own context, which
// cancelled ends when the client cancels m: at 2026-07-28 a request has no
// session a notifications/cancelled could name it in, so closing its
// response stream is how the app learns of the cancellation. The returned
// done must be called when the POST ends.
func (s *modernClient) track(ctx context.Context, m *message) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	key := compactID(m.id)
	s.mu.Lock()
	if s.inflight == nil {
		s.inflight = map[string]context.CancelFunc{}
	}
	s.inflight[key] = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		cancel()
	}
}

// cancelled ends the POST of the request a notifications/cancelled names.
func (s *modernClient) cancelled(raw []byte) {
	var env struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return
	}
	s.mu.Lock()
	cancel := s.inflight[compactID(env.Params.RequestID)]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// compactID is a JSON-RPC id as parseMessage keeps it.
func compactID(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
