package testkit

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestSyncBuffer: writes from many goroutines all arrive, whole (run with
// -race, it also shows the buffer is safe to share).
func TestSyncBuffer(t *testing.T) {
	t.Parallel()
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { fmt.Fprintf(&b, "line %02d\n", i) })
		_ = b.String()
	}
	wg.Wait()
	got := b.String()
	for i := range 20 {
		if !strings.Contains(got, fmt.Sprintf("line %02d\n", i)) {
			t.Fatalf("line %d is missing from %q", i, got)
		}
	}
}

// TestBearer: the request reaches the server with the token, and the
// caller's request is left without it.
func TestBearer(t *testing.T) {
	t.Parallel()
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: Bearer{Token: "tok"}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got != "Bearer tok" || req.Header.Get("Authorization") != "" {
		t.Fatalf("the server got %q, the caller's request holds %q", got, req.Header.Get("Authorization"))
	}
}
