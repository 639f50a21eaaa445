package procfs

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps procfs a leaf that app/control, app/hook and the CLI
// may all use.
func TestImports(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".")
}

func TestParseStat(t *testing.T) {
	t.Parallel()
	st, err := ParseStat([]byte("4242 (a) (b c)) S 1 4240 4200 34817 4240 4194560 0 0 0 0 0 0 0 0 20 0 1 0 98765 0 0\n"))
	want := Stat{PID: 4242, Comm: "a) (b c)", State: 'S', PPID: 1, PGRP: 4240, Session: 4200, TTYNr: 34817, TPGID: 4240, Start: 98765}
	if err != nil || st != want {
		t.Fatalf("ParseStat = %+v %v, want %+v", st, err, want)
	}
	for bad, field := range map[string]string{
		"4242 no-parens S 1 2 3 4 5": "parentheses",
		"1 (x) S 1 2":                "fields after",
		"1 (x) S 1 two 3 4 5 0 0 0 0 0 0 0 0 0 20 0 1 0 98765 0": "field 5",
		"x (x) S 1 2 3 4 5 0 0 0 0 0 0 0 0 0 20 0 1 0 98765 0":   "field 1",
		"1 (x) SS 1 2 3 4 5 0 0 0 0 0 0 0 0 0 20 0 1 0 98765 0":  "field 3",
		"1 (x) S 1 2 3 4 5 0 0 0 0 0 0 0 0 0 20 0 1 0 -98765 0":  "field 22",
		")1 (x S 1 2 3 4 5 0 0 0 0 0 0 0 0 0 20 0 1 0 98765 0":   "parentheses",
	} {
		_, err := ParseStat([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("ParseStat(%q) = %v, want an error naming %q", bad, err, field)
		}
	}
}

// TestReadSelf reads this test process's own entries: its parent, its
// state and its arguments as the kernel has them (the main thread the
// status is of may sleep while another reads it).
func TestReadSelf(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		if _, err := ReadStat(os.Getpid()); err == nil {
			t.Fatal("ReadStat worked without /proc")
		}
		return
	}
	st, err := ReadStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PID != os.Getpid() || st.PPID != os.Getppid() || st.State == 0 || st.Start == 0 {
		t.Errorf("ReadStat(self) = %+v; want pid %d, ppid %d, a state, a start time", st, os.Getpid(), os.Getppid())
	}
	argv, err := ReadCmdline(os.Getpid())
	if err != nil || !slices.Equal(argv, os.Args) {
		t.Errorf("ReadCmdline(self) = %q %v, want %q", argv, err, os.Args)
	}
	env, err := ReadEnviron(os.Getpid())
	if err != nil || len(env) == 0 || !strings.Contains(env[0], "=") {
		t.Errorf("ReadEnviron(self) = %d entries %v", len(env), err)
	}
	if !slices.Contains(PIDs(), os.Getpid()) {
		t.Error("PIDs() does not list this process")
	}
	if _, err := ReadStat(1 << 30); err == nil {
		t.Error("ReadStat of a pid that cannot exist worked")
	}
	if _, err := ReadCmdline(1 << 30); err == nil {
		t.Error("ReadCmdline of a pid that cannot exist worked")
	}
}
