package app

import (
	"github.com/asktray/asktray/app/autostart"
)

// loginArgs returns the arguments a start at login passes: the background
// flag, the data dir of o, and its address when it is not the default, so
// that the app started at login is the one whose settings asked for it. The
// data dir is always named: $ASKTRAY_DATA_DIR set in a shell is not set in
// the login session.
func loginArgs(o Options) []string {
	args := []string{autostart.BackgroundFlag, "--data-dir", o.DataDir}
	if o.Addr != "" && o.Addr != DefaultAddr {
		args = append(args, "--addr", o.Addr)
	}
	return args
}

// loginStarter returns what applying start_at_login does for the app run
// with o: write the entry for this executable, or remove it.
func loginStarter(o Options) func(on bool) error {
	return func(on bool) error {
		if !on {
			return autostart.SetStartAtLogin(false, "", nil)
		}
		exe, err := autostart.LoginExecutable()
		if err != nil {
			return err
		}
		return autostart.SetStartAtLogin(true, exe, loginArgs(o))
	}
}
