package autostart

import (
	"fmt"
	"os"
)

// platform is the LaunchAgent (LaunchAgentPath): launchd reads
// ~/Library/LaunchAgents when the person logs in, so nothing is loaded now.
// The dir is 0755, as on every Mac.
func platform() (starter, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("find the LaunchAgents dir: %w", err)
	}
	return fileStarter{path: LaunchAgentPath(home), dirMode: 0o755, what: "launch agent", content: LaunchAgentPlist}, nil
}
