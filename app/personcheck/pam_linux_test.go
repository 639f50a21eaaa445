//go:build linux && cgo

package personcheck

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// verifyEnv makes this test binary check the password in it through System
// and print how that went, instead of running the tests.
const verifyEnv = "ASKTRAY_TEST_PAM_PASSWORD"

func TestMain(m *testing.M) {
	if p, ok := os.LookupEnv(verifyEnv); ok {
		err := System().Verify(p)
		switch {
		case err == nil:
			fmt.Print("ok")
		case errors.Is(err, ErrWrongPassword):
			fmt.Print("wrong: ", err)
		default:
			fmt.Print("unavailable: ", err)
		}
		os.Exit(0)
	}
	os.Exit(testkit.Main(m, nil))
}

// TestSystem_RealPAM checks passwords against the machine's real PAM stack,
// as the app does: not as root (pam_unix then asks its setgid helper), but
// as a user the test makes with a known password. The right password
// passes, a wrong one and an empty one do not, and an account without a
// password passes with nothing although common-auth says nullok.
func TestSystem_RealPAM(t *testing.T) {
	testkit.NeedRoot(t, "to make users with known passwords")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := testkit.Give(t, exe)
	withPW := testkit.NewUser(t, "correct horse 7")
	noPW := testkit.NewUser(t, "")
	for _, c := range []struct {
		user     testkit.User
		password string
		want     string
	}{
		{withPW, "correct horse 7", "ok"},
		{withPW, "correct horse 8", "wrong"},
		{withPW, "", "wrong"},
		{noPW, "", "wrong"},
		{noPW, "anything", "wrong"},
	} {
		cmd := exec.Command(bin)
		cmd.Env = []string{verifyEnv + "=" + c.password, "HOME=" + c.user.Home}
		cmd.SysProcAttr = c.user.Credential()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("as %s: %v\n%s", c.user.Name, err, out)
		}
		if !strings.HasPrefix(string(out), c.want) {
			t.Errorf("%s with password %q: got %q, want %s", c.user.Name, c.password, out, c.want)
		}
	}
}
