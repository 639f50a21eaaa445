package control

import (
	"context"
	"net/http"

	"github.com/asktray/asktray/app/remote"
)

// RemoteHosts is the running app's remote hosts (app/remote.Manager):
// Sync rereads the hosts file, connecting added hosts and ending removed
// ones at once; States says how each host's connection is.
type RemoteHosts interface {
	Sync() error
	States() []remote.State
}

// remoteRoutes registers the remote hosts' endpoints when s serves them.
func (s *Server) remoteRoutes(mux *http.ServeMux) {
	if s.Remotes == nil {
		return
	}
	mux.HandleFunc("GET /v1/remotes", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Remotes.States())
	})
	mux.HandleFunc("POST /v1/remotes/sync", func(w http.ResponseWriter, _ *http.Request) {
		if err := s.Remotes.Sync(); err != nil {
			writeJSON(w, http.StatusInternalServerError, apiError{Error: err.Error(), Code: "remote_hosts"})
			return
		}
		writeJSON(w, http.StatusOK, s.Remotes.States())
	})
}

// Remotes returns the running app's remote hosts and their connections.
func (c *Client) Remotes(ctx context.Context) ([]remote.State, error) {
	var out []remote.State
	return out, c.do(ctx, http.MethodGet, "/v1/remotes", nil, &out)
}

// SyncRemotes asks the running app to reread the hosts file ('asktray
// remote add' and 'rm' call it) and returns the hosts' connections.
func (c *Client) SyncRemotes(ctx context.Context) ([]remote.State, error) {
	var out []remote.State
	return out, c.do(ctx, http.MethodPost, "/v1/remotes/sync", struct{}{}, &out)
}
