package hook

// TrustEnv is what an agent's Spec.Trust reads: the doctor hands it the
// file readers (app/hook parses no JSONC or TOML itself) and what it found
// installed.
type TrustEnv struct {
	GOOS      string // runtime.GOOS: where managed settings live
	Home      string // the home dir
	Getenv    func(string) string
	Cwd       string // the project the check is for; "" for none
	HooksFile string // the agent's hooks file (Settings.File)
	Found     []Installed
	// ReadJSON reads a JSON or JSONC file; exists is false when there is
	// none. ReadTOML reads a TOML file the same way.
	ReadJSON func(path string) (m map[string]any, exists bool, err error)
	ReadTOML func(path string) (m map[string]any, exists bool, err error)
}

// Installed is one asktray handler found in an agent's hooks file.
type Installed struct {
	Event      string // as the file spells it
	Matcher    string
	HasMatcher bool // the group has a "matcher" key
	// Group and Handler are its place: hooks[Event][Group], and
	// .hooks[Handler] in a matcher group (-1 in a flat list).
	Group, Handler int
	Command        string         // the POSIX command line
	Timeout        int            // seconds, 0 when unset
	Raw            map[string]any // the handler as decoded
}

// TrustStatus grades a TrustLine.
type TrustStatus int

// The grades of a TrustLine.
const (
	TrustFine    TrustStatus = iota // the agent runs the hooks
	TrustProblem                    // it runs none, or not these: the person must act
	TrustNote                       // worth knowing, not wrong
)

// TrustLine is one finding of an agent's Spec.Trust: the file and key it
// read there, and what it means.
type TrustLine struct {
	Status TrustStatus
	// What the line is about: "" for the agent's trust of the hooks, or
	// what else the agent's state says ("agent": whether it is installed,
	// "mode", "workspace").
	What      string
	File, Key string
	Text      string
}
