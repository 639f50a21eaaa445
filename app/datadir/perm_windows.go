package datadir

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// restrictDir makes dir readable by the current user only. Unix modes mean
// nothing on Windows (os.Chmod only sets the read-only attribute), and a dir
// under %AppData% inherits access for SYSTEM and the Administrators group
// too. So dir gets a protected DACL (nothing inherited from its parent) with
// one entry, full control for the user running the app, inherited by every
// file and dir in it: the token, the history, the settings, the log and the
// control socket. Windows propagates it to what is already there. It blocks
// for the security calls.
func restrictDir(dir string) error {
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("restrict data dir: find the current user: %w", err)
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: windows.GENERIC_ALL,
		AccessMode:        windows.SET_ACCESS,
		Inheritance:       windows.SUB_CONTAINERS_AND_OBJECTS_INHERIT,
		Trustee: windows.TRUSTEE{
			TrusteeForm:  windows.TRUSTEE_IS_SID,
			TrusteeType:  windows.TRUSTEE_IS_USER,
			TrusteeValue: windows.TrusteeValueFromSID(user.User.Sid),
		},
	}}, nil)
	if err != nil {
		return fmt.Errorf("restrict data dir: build the access list: %w", err)
	}
	info := windows.SECURITY_INFORMATION(windows.DACL_SECURITY_INFORMATION | windows.PROTECTED_DACL_SECURITY_INFORMATION)
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, info, nil, nil, acl, nil); err != nil {
		return fmt.Errorf("restrict data dir %s: %w", dir, err)
	}
	return nil
}
