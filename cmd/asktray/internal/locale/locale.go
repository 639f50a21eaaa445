// Package locale quiets Fyne's complaint about the C locale by giving it a language to use, before Fyne's own init runs.
//
// Fyne's lang package reads the locale in its init function and logs
// "Error parsing user locale C" to stderr for LANG=C.UTF-8, the default in
// containers and SSH sessions, on every start, CLI commands included. Go
// initialises packages in import-path order once their imports are ready
// (Go spec, "Package initialization"), and this package imports only os and
// strings and sorts before github.com/jeandeaual/go-locale, which Fyne's lang
// needs, so this init runs first.
package locale

import (
	"os"
	"strings"
)

func init() {
	if os.Getenv("LANGUAGE") != "" {
		return
	}
	loc := ""
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = os.Getenv(k); loc != "" {
			break
		}
	}
	// go-locale consults LANGUAGE for "C.UTF-8" (but not for plain "C"), so
	// English there is enough; plain C or POSIX already falls back quietly.
	base, _, _ := strings.Cut(loc, ".")
	if base == "C" || base == "POSIX" {
		_ = os.Setenv("LANGUAGE", "en")
	}
}
