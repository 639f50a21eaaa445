package hook

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// clineEntryPrefix starts the line of asktray's Cline hook file that holds
// the command it runs, as JSON.
const clineEntryPrefix = "# asktray-entry: "

// clineHookSource is asktray's PreToolUse hook file for Cline: a POSIX
// shell script (Cline runs a file with a #! line through its interpreter)
// that execs e's command, which reads Cline's payload on stdin and prints
// Cline's answer.
func clineHookSource(e Entry) []byte {
	entry, _ := json.Marshal(struct { // strings and an int always encode
		Command []string `json:"command"`
		Timeout int      `json:"timeout"`
	}{e.Args, e.Timeout})
	return []byte(strings.NewReplacer("ENTRY", clineEntryPrefix+string(entry), "COMMAND", e.Command()).Replace(clineHookSh))
}

const clineHookSh = `#!/bin/sh
# Asktray's PreToolUse hook for Cline, written by 'asktray config cline --hooks --write'
# ('asktray config cline --hooks --remove' deletes it; edits here are lost on the next --write).
#
# Cline runs this file before each tool call and waits for it. Your Asktray rules decide there, and
# a call they or Asktray's risk grading send to the tray is asked there: the tray's allow prints
# nothing (Cline's own auto-approve setting then runs the call), its deny prints {"cancel": true},
# which stops Cline's task before the call runs. When Asktray is not running, or does not answer
# within a second, this prints nothing: the call is left to Cline. It never allows anything itself.
# A hook of your own can live beside this one as PreToolUse.sh: Cline runs both.
ENTRY
exec COMMAND
`

// readClineHook finds the command and timeout in a hook file
// clineHookSource wrote.
func readClineHook(src []byte) ([]string, int, bool) {
	for line := range strings.Lines(string(src)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), clineEntryPrefix)
		if !ok {
			continue
		}
		var e struct {
			Command []string `json:"command"`
			Timeout int      `json:"timeout"`
		}
		if json.Unmarshal([]byte(rest), &e) != nil || len(e.Command) == 0 {
			return nil, 0, false
		}
		return e.Command, e.Timeout, true
	}
	return nil, 0, false
}

// clineTrust says that Cline runs the hook file (3.0.65 has no setting
// asktray knows of that turns its hook files off), and reads its
// auto-approve setting, which decides whether the tray's allow is final:
// with it off Cline asks again in its own prompt.
func clineTrust(env TrustEnv) []TrustLine {
	runs := TrustLine{Status: TrustFine, File: env.HooksFile,
		Text: "Cline runs every PreToolUse file of this folder before each tool call (no setting of Cline 3.0.65 that asktray knows of turns them off)"}
	return append([]TrustLine{runs}, clineMode(env)...)
}

// clineMode reads Cline's auto-approve setting.
func clineMode(env TrustEnv) []TrustLine {
	dir := filepath.Dir(filepath.Dir(env.HooksFile))
	file := filepath.Join(dir, "data", "settings", "global-settings.json")
	if d := strings.TrimSpace(env.Getenv("CLINE_GLOBAL_SETTINGS_PATH")); d != "" {
		file = d
	}
	m, _, err := env.ReadJSON(file)
	switch {
	case err != nil:
		return []TrustLine{{Status: TrustNote, File: file, Text: "cannot read it: " + err.Error()}}
	case m["toolAutoApprove"] == false:
		return []TrustLine{{Status: TrustNote, What: "mode", File: file, Key: "toolAutoApprove",
			Text: "is false: Cline asks in its own prompt after the hook, so a call the tray allowed is asked again there; " +
				"turn auto-approve on (Shift+Tab in Cline, or take the key out) for the tray's allow to be final"}}
	}
	return []TrustLine{{Status: TrustFine, What: "mode", File: file, Key: "toolAutoApprove",
		Text: fmt.Sprintf("auto-approve is on (%s): the tray's allow is final, and a call the tray does not ask about runs unasked", clineDefault(m))}}
}

// clineDefault says whether auto-approve is on by Cline's default or by
// the setting.
func clineDefault(m map[string]any) string {
	if m["toolAutoApprove"] == true {
		return "toolAutoApprove is true"
	}
	return "Cline's default"
}
