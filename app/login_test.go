package app

import (
	"errors"
	"strings"
	"testing"
)

func TestLoginArgs_NameTheDataDirAndTheAddrWhenNotDefault(t *testing.T) {
	if got := strings.Join(loginArgs(Options{DataDir: "/data/default", Addr: DefaultAddr}), " "); got != "--background --data-dir /data/default" {
		t.Fatalf("default addr: %q", got)
	}
	if got := strings.Join(loginArgs(Options{DataDir: "/data/other", Addr: "127.0.0.1:8000"}), " "); got != "--background --data-dir /data/other --addr 127.0.0.1:8000" {
		t.Fatalf("others: %q", got)
	}
}

func TestSettingsKeeper_ApplyLoginOnlyWhenItChangesSomething(t *testing.T) {
	var calls []bool
	fail := false
	k := &settingsKeeper{login: func(on bool) error {
		calls = append(calls, on)
		if fail {
			return errors.New("disk full")
		}
		return nil
	}}
	// Off while off leaves a hand-made entry alone; on writes; on again
	// rewrites (the binary may have moved); off removes.
	for _, on := range []bool{false, true, true, false, false} {
		if err := k.applyLogin(on); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmtBools(calls); got != "true,true,false" {
		t.Fatalf("calls %v", calls)
	}
	fail = true
	if err := k.applyLogin(true); err == nil || err.Error() != "start_at_login: disk full" {
		t.Fatalf("failing write: %v", err)
	}
	if k.loginOn {
		t.Fatal("a failed write counts as applied")
	}
}

func fmtBools(b []bool) string {
	s := make([]string, len(b))
	for i, v := range b {
		if v {
			s[i] = "true"
		} else {
			s[i] = "false"
		}
	}
	return strings.Join(s, ",")
}
