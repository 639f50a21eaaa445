// Command asktray-hook is not built for Windows, where the control channel
// is a named pipe that only the app's own binary dials: 'asktray config
// AGENT --hooks' installs `asktray.exe hook AGENT` there. Run by mistake,
// it prints why and exits 0 with no decision, so the agent decides as if
// no hook ran.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "asktray-hook: not for Windows; use asktray.exe hook AGENT")
	os.Exit(0)
}
