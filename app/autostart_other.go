//go:build darwin || windows

package app

// loginSupported says whether SetStartAtLogin can turn start at login on.
const loginSupported = false

// SetStartAtLogin is not done by the app on macOS and Windows yet: turning
// it on returns an error pointing at the README, which says how to add a
// Login Item (macOS) or a Startup folder shortcut (Windows). Turning it off
// does nothing. It does not block.
func SetStartAtLogin(on bool, exe string, args []string) error {
	if on {
		return errLoginUnsupported
	}
	return nil
}
