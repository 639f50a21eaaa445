package autostart

import (
	"fmt"
	"path/filepath"
	"strings"
)

// LaunchAgentLabel names the start-at-login LaunchAgent on macOS (launchd
// labels are reverse-DNS names; this is FyneApp.toml's ID).
const LaunchAgentLabel = IconName

// LaunchAgentPath returns where the start-at-login LaunchAgent lives on
// macOS for the user whose home dir is home:
// ~/Library/LaunchAgents/app.asktray.desktop.plist.
func LaunchAgentPath(home string) string {
	return filepath.Join(home, "Library", "LaunchAgents", LaunchAgentLabel+".plist")
}

// LaunchAgentPlist returns the property list of a LaunchAgent that starts
// exe (an absolute path) with args once when the person logs in (RunAtLoad;
// launchd does not restart it after Quit). It is pure: it touches no file.
func LaunchAgentPlist(exe string, args []string) (string, error) {
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("launch agent: executable %q is not an absolute path", exe)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + LaunchAgentLabel + `</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, w := range append([]string{exe}, args...) {
		if strings.ContainsFunc(w, isControl) {
			return "", fmt.Errorf("launch agent: argument %q holds a control character", w)
		}
		b.WriteString("\t\t<string>" + xmlEscaper.Replace(w) + "</string>\n")
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>ProcessType</key>
	<string>Interactive</string>
</dict>
</plist>
`)
	return b.String(), nil
}

// xmlEscaper escapes character data; control characters are refused before.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
