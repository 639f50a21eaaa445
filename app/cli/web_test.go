package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLI_PendingLinks: a link carries its question's key, so it is shown
// only on a terminal: 'pending' prints it (both formats) when its output is
// one and never into a pipe; a headless app prints it on its own terminal
// and never into its log. The link opens the page on the MCP listener
// without the bearer token, which /mcp still needs.
func TestCLI_PendingLinks(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm)
	id := p.askedIDs(t, 1)[0]

	r := run(t, dir, "pending", "--json")
	if !strings.Contains(r.stdout, id) || strings.Contains(r.stdout, "?k=") {
		t.Fatalf("pending --json into a pipe: %+v, want the question without its link", r)
	}
	if r = run(t, dir, "pending"); !strings.Contains(r.stdout, id) || strings.Contains(r.stdout, "?k=") || strings.Contains(r.stdout, "Answer in a browser") {
		t.Fatalf("pending into a pipe: %+v, want the question without its link", r)
	}

	tp := startPTY(t, dir, nil, "pending", "--json")
	code, out := tp.wait()
	var pend []struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(out, "\r", "")), &pend); code != 0 || err != nil || len(pend) != 1 || pend[0].ID != id {
		t.Fatalf("pending --json on a terminal: %d %v\n%s", code, err, out)
	}
	var info URLInfo
	_ = json.Unmarshal([]byte(run(t, dir, "url", "--json").stdout), &info)
	base := strings.TrimSuffix(info.URL, "/mcp")
	link := pend[0].URL
	if !strings.HasPrefix(link, base+"/q/"+id+"?k=") || strings.Contains(link, info.Token) {
		t.Fatalf("link %q (MCP at %s)", link, info.URL)
	}
	tp = startPTY(t, dir, nil, "pending")
	if _, out = tp.wait(); !strings.Contains(out, "Answer in a browser") || !strings.Contains(out, id+"  "+link) {
		t.Errorf("pending on a terminal does not show the link:\n%s", out)
	}

	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "Delete the build directory?") {
		t.Fatalf("page: %d\n%s", res.StatusCode, body)
	}
	if res, err = http.Get(info.URL); err != nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/mcp without the token: %v %v", res.StatusCode, err)
	}
	res.Body.Close()

	key := strings.SplitN(link, "?k=", 2)[1]
	if log, _ := os.ReadFile(filepath.Join(dir, "log", "asktray.log")); strings.Contains(string(log), key) {
		t.Errorf("the log holds the link:\n%s", log)
	}
}

// TestCLI_HeadlessAppPrintsLinksOnItsTerminal: a headless app started on a
// terminal prints each new question's link there, and not into its log.
func TestCLI_HeadlessAppPrintsLinksOnItsTerminal(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	seed, _ := json.Marshal([]any{confirm})
	app := startPTY(t, dir, []string{"ASKTRAY_TEST_SEED=" + string(seed)}, "--headless", "--addr", "127.0.0.1:0")
	app.expect("in a browser: http://127.0.0.1:") // before or after the seed's "asked" line
	app.expect("?k=")
	app.mu.Lock()
	shown := app.out.String()
	app.mu.Unlock()
	_, after, _ := strings.Cut(shown, "?k=")
	key := strings.Fields(after)[0]
	if log, _ := os.ReadFile(filepath.Join(dir, "log", "asktray.log")); len(key) < 40 || strings.Contains(string(log), key) {
		t.Errorf("key %q; the log holds it or it is short:\n%s", key, log)
	}
}
