//go:build realagents

package realagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// saveEnv names a directory where a session keeps, when it ends, the first
// payload of each hook event its agent sent (DIR/AGENT/EVENT.json, its
// scratch paths under /tmp/realagents): how app/hook/testdata/*/real was
// made.
const saveEnv = "REALAGENTS_SAVE"

// savePayloads writes s's recorded payloads under $REALAGENTS_SAVE.
func (s *session) savePayloads(root string) {
	dir := os.Getenv(saveEnv)
	if dir == "" {
		return
	}
	seen := map[string]bool{}
	for _, r := range hookRecords(s.t, s.recs) {
		var ev struct {
			Hook    string `json:"hook_event_name"`
			Copilot string `json:"hookName"`
			Plugin  struct {
				Type string `json:"type"`
			} `json:"event"` // opencode's, as asktray's plugin hands it over
		}
		if json.Unmarshal([]byte(r.Stdin), &ev) != nil {
			continue
		}
		name := ev.Hook + ev.Copilot + ev.Plugin.Type
		if i := slices.Index(r.Args, "--event"); name == "" && i >= 0 && i+1 < len(r.Args) {
			// Copilot CLI's userPromptSubmitted, postToolUse and agentStop
			// name no event (1.0.102): the entry's --event does.
			name = r.Args[i+1]
		}
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		writeFile(s.t, filepath.Join(dir, s.spec.name, name+".json"), strings.ReplaceAll(strings.TrimSpace(r.Stdin), root, "/tmp/realagents")+"\n")
	}
}
