package datadir

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// TestEnsure_WindowsACL: the data dir and a file created in it allow
// the current user alone, with nothing inherited from the parent.
func TestEnsure_WindowsACL(t *testing.T) {
	dir := t.TempDir()
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateToken(dir); err != nil {
		t.Fatal(err)
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, dir + `\` + TokenFile} {
		sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
		if err != nil {
			t.Fatal(err)
		}
		acl, _, err := sd.DACL()
		if err != nil {
			t.Fatal(err)
		}
		if acl.AceCount != 1 {
			t.Fatalf("%s: %d access entries, want 1 (the user)", path, acl.AceCount)
		}
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(acl, 0, &ace); err != nil {
			t.Fatal(err)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !sid.Equals(user.User.Sid) {
			t.Errorf("%s: the entry is for %s, want the user %s", path, sid, user.User.Sid)
		}
	}
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	if ctl, _, err := sd.Control(); err != nil || ctl&windows.SE_DACL_PROTECTED == 0 {
		t.Errorf("the data dir's DACL is not protected: %v %v", ctl, err)
	}
}
