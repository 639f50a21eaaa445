package doctor

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestProjectEntries: an asktray entry a client reads for the current folder
// only wins over the user one, so a stale one there is a problem naming its
// file and key, and a current one is fine, said to be the folder's.
func TestProjectEntries(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	good := `{"url": "` + urlNow + `", "headers": {"Authorization": "Bearer ` + tokNow + `"}}`
	old := `{"type": "http", "url": "` + urlNow + `", "headers": {"Authorization": "Bearer ` + tokOld + `"}}`
	claudeJSON := filepath.Join(s.home, ".claude.json")
	mkfile(t, claudeJSON, `{"mcpServers": {"asktray": `+good+`}, "projects": {`+strconv.Quote(s.env.Cwd)+`: {"mcpServers": {"asktray": `+old+`}}}}`)
	mcpJSON := filepath.Join(s.env.Cwd, ".mcp.json")
	mkfile(t, mcpJSON, `{"mcpServers": {"asktray": {"type": "http", "url": "http://127.0.0.1:7000/mcp", "headers": {"Authorization": "Bearer `+tokNow+`"}}}}`)
	cursor := filepath.Join(s.env.Cwd, ".cursor", "mcp.json")
	mkfile(t, cursor, `{"mcpServers": {"asktray": {"command": "/gone/asktray", "args": ["stdio", "--data-dir", "`+s.env.DataDir+`"]}}}`)
	vscode := filepath.Join(s.env.Cwd, ".vscode", "mcp.json")
	mkfile(t, vscode, "// the team's\n{\"servers\": {\"asktray\": "+good+",},}\n")
	gemini := filepath.Join(s.env.Cwd, ".gemini", "settings.json")
	mkfile(t, gemini, `{"mcpServers": {"asktray": `+old+`}}`)

	r := s.check()
	if l := problem(t, r, "claude-code", claudeJSON, `projects."`+s.env.Cwd+`".mcpServers.asktray.headers.Authorization`); !strings.Contains(l.Text, "old token") || !strings.Contains(l.Text, "wins over the user one") {
		t.Errorf("local scope: %+v", l)
	}
	if l := problem(t, r, "claude-code", mcpJSON, "mcpServers.asktray.url"); !strings.Contains(l.Text, "is http://127.0.0.1:7000/mcp") {
		t.Errorf(".mcp.json: %+v", l)
	}
	if l := problem(t, r, "cursor", cursor, "mcpServers.asktray.command"); !strings.Contains(l.Text, "/gone/asktray, which does not exist") {
		t.Errorf(".cursor/mcp.json: %+v", l)
	}
	problem(t, r, "gemini-cli", gemini, "mcpServers.asktray.headers.Authorization")
	if !hasLine(r, "vscode", Fine, "(for "+s.env.Cwd+" only; it wins over the user entry)") || !hasLine(r, "claude-code", Fine, "connects to "+urlNow) {
		t.Errorf("the current entries:\n%s", text(r))
	}
	if n := len(r.Problems()); n != 4 {
		t.Errorf("%d problems:\n%s", n, text(r))
	}
	s.env.Cwd = s.home // the home dir as the folder: the user files are not read twice
	r = s.check()
	if n := len(r.Problems()); n != 0 {
		t.Errorf("from the home dir, %d problems:\n%s", n, text(r))
	}
}
