package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLI_PendingLinks: a headless app hands the person a link per
// question in `pending` (both formats) and in its log; the link opens the
// page on the MCP listener without the bearer token, which /mcp still needs.
func TestCLI_PendingLinks(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir, confirm)
	id := p.askedIDs(t, 1)[0]

	r := run(t, dir, "pending", "--json")
	var pend []struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &pend); err != nil || len(pend) != 1 || pend[0].ID != id {
		t.Fatalf("pending --json: %v %+v", err, r)
	}
	var info URLInfo
	_ = json.Unmarshal([]byte(run(t, dir, "url", "--json").stdout), &info)
	base := strings.TrimSuffix(info.URL, "/mcp")
	link := pend[0].URL
	if !strings.HasPrefix(link, base+"/q/"+id+"?k=") || strings.Contains(link, info.Token) {
		t.Fatalf("link %q (MCP at %s)", link, info.URL)
	}
	if r = run(t, dir, "pending"); !strings.Contains(r.stdout, "Answer in a browser") || !strings.Contains(r.stdout, id+"  "+link) {
		t.Errorf("pending does not show the link:\n%s", r.stdout)
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

	deadline := time.Now().Add(10 * time.Second)
	for {
		log, _ := os.ReadFile(filepath.Join(dir, "log", "asktray.log"))
		if strings.Contains(string(log), `msg="answer in a browser" id=`+id+` url="`+link+`"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line with the link:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
