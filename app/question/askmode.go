package question

import "fmt"

// AskMode says where questions go: the desktop, the asking client's own
// form (MCP elicitation), or whichever fits (see README, "Answering in the
// agent's own client").
type AskMode string

// The ask modes.
const (
	// AskDesktop shows questions on the desktop (and the page and the CLI).
	AskDesktop AskMode = "desktop"
	// AskClient sends each question to the asking client's form when the
	// client declared form elicitation and the question can be put as a
	// form; otherwise it goes where AskDesktop sends it.
	AskClient AskMode = "client"
	// AskAuto uses the desktop when there is one, else the client's form
	// when it can, else the page and the CLI.
	AskAuto AskMode = "auto"
)

// AskModes lists the modes in the order help texts give them.
var AskModes = []AskMode{AskDesktop, AskClient, AskAuto}

// ParseAskMode checks s; the empty string means AskDesktop. The error names
// the allowed values, for the caller to prefix with the field or flag.
func ParseAskMode(s string) (AskMode, error) {
	switch m := AskMode(s); m {
	case "":
		return AskDesktop, nil
	case AskDesktop, AskClient, AskAuto:
		return m, nil
	}
	return "", fmt.Errorf("must be one of desktop, client, auto, got %q", s)
}
