//go:build !darwin && !windows

package autostart

// platform is the XDG autostart entry (XDGPath), which desktop sessions
// read at login.
func platform() (starter, error) {
	path, err := XDGPath()
	if err != nil {
		return nil, err
	}
	return fileStarter{path: path, dirMode: 0o700, what: "autostart entry", content: DesktopEntry}, nil
}
