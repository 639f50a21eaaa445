package autostart

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is the name of the start-at-login entry in the XDG
// autostart dir ($XDG_CONFIG_HOME/autostart, default ~/.config/autostart).
const File = "asktray.desktop"

// XDGPath returns where the start-at-login entry lives on Linux and
// the BSDs: $XDG_CONFIG_HOME/autostart/asktray.desktop when XDG_CONFIG_HOME
// is an absolute path, else ~/.config/autostart/asktray.desktop.
func XDGPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "autostart", File), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the autostart dir: %w", err)
	}
	return filepath.Join(home, ".config", "autostart", File), nil
}

// DesktopEntry returns the XDG desktop entry that starts exe (an
// absolute path) with args at login.
func DesktopEntry(exe string, args []string) (string, error) {
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("autostart: executable %q is not an absolute path", exe)
	}
	words := []string{exe}
	words = append(words, args...)
	execLine := make([]string, 0, len(words))
	for _, w := range words {
		q, err := quoteExecArg(w)
		if err != nil {
			return "", err
		}
		execLine = append(execLine, q)
	}
	tryExec, err := escapeString(exe)
	if err != nil {
		return "", err
	}
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=Asktray\n" +
		"GenericName=Agent question tray\n" +
		"Comment=Lets AI agents ask you questions from a tray icon\n" +
		"Exec=" + strings.Join(execLine, " ") + "\n" +
		"TryExec=" + tryExec + "\n" +
		"Icon=" + IconName + "\n" +
		"Terminal=false\n" +
		"Categories=Utility;\n" +
		"X-GNOME-Autostart-enabled=true\n", nil
}

// execReserved are the characters that make an Exec argument need quotes
// (Desktop Entry Specification, "The Exec key").
const execReserved = " \t\n\"'\\><~|&;$*?#()`"

// quoteExecArg quotes one Exec argument as the spec asks, then escapes it
// as a string value. Control characters are refused: no launcher handles
// them the same way.
func quoteExecArg(s string) (string, error) {
	if s == "" {
		return `""`, nil
	}
	if strings.ContainsFunc(s, isControl) {
		return "", fmt.Errorf("autostart: argument %q holds a control character", s)
	}
	s = strings.ReplaceAll(s, "%", "%%")
	if strings.ContainsAny(s, execReserved) {
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range s {
			if strings.ContainsRune("\"`$\\", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
		s = b.String()
	}
	return escapeString(s)
}

// escapeString escapes s as a desktop entry string value.
func escapeString(s string) (string, error) {
	if strings.ContainsFunc(s, isControl) {
		return "", fmt.Errorf("autostart: %q holds a control character", s)
	}
	return strings.ReplaceAll(s, `\`, `\\`), nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
