package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// TestMain makes this test binary its own child: run as asktray, it prints
// its arguments and exits 3.
func TestMain(m *testing.M) {
	os.Exit(Main(m, func() int {
		fmt.Printf("child %s", strings.Join(os.Args[1:], " "))
		fmt.Fprint(os.Stderr, "to stderr")
		return 3
	}))
}

// TestRunAsktray: the command runs this binary's child function with the
// arguments, and its exit code and both outputs come back.
func TestRunAsktray(t *testing.T) {
	t.Parallel()
	r := RunAsktray(t, "pending", "--json")
	if r != (Result{Code: 3, Stdout: "child pending --json", Stderr: "to stderr"}) {
		t.Fatalf("got %+v", r)
	}
}

// TestBinary builds the real asktray once: two calls give the same file,
// and it runs.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := Binary(t)
	if again := Binary(t); again != bin {
		t.Fatalf("built twice: %s, %s", bin, again)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "asktray ") {
		t.Fatalf("asktray version: %q %v", out, err)
	}
}

// TestFakeNotifications: a client on the private bus shows and closes a
// notification, and an invoked action reaches it as a signal.
func TestFakeNotifications(t *testing.T) {
	t.Parallel()
	addr := StartBus(t)
	fake := StartFakeNotifications(t, addr)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.AddMatchSignal(dbus.WithMatchInterface("org.freedesktop.Notifications")); err != nil {
		t.Fatal(err)
	}
	signals := make(chan *dbus.Signal, 4)
	conn.Signal(signals)
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	var id uint32
	if err := obj.Call("org.freedesktop.Notifications.Notify", 0, "asktray", uint32(0), "", "Question", "Deploy?", []string{"default", "Open"}, map[string]dbus.Variant{}, int32(-1)).Store(&id); err != nil {
		t.Fatal(err)
	}
	if err := obj.Call("org.freedesktop.Notifications.CloseNotification", 0, id).Err; err != nil {
		t.Fatal(err)
	}
	want := Note{ID: id, App: "asktray", Summary: "Question", Body: "Deploy?", Actions: []string{"default", "Open"}}
	if got := fake.Shown(); len(got) != 1 || got[0].ID != want.ID || got[0].Body != want.Body || !slices.Equal(got[0].Actions, want.Actions) {
		t.Fatalf("shown %+v, want [%+v]", got, want)
	}
	if got := fake.Closed(); !slices.Equal(got, []uint32{id}) {
		t.Fatalf("closed %v", got)
	}
	if err := fake.Invoke(id, "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-signals:
		if s.Name != "org.freedesktop.Notifications.ActionInvoked" || s.Body[0] != id || s.Body[1] != "default" {
			t.Fatalf("signal %+v", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no ActionInvoked signal")
	}
}

// TestOnlyTestsImport keeps testkit out of the shipped code: no package's
// non-test files import it.
func TestOnlyTestsImport(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-tags", "migrated_fynedo", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/asktray/asktray/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, self := range []string{"github.com/asktray/asktray/internal/testkit", "github.com/asktray/asktray/app/history/historytest",
		"github.com/asktray/asktray/app/question/present/presenttest"} {
		for line := range strings.Lines(string(out)) {
			pkg, imports, _ := strings.Cut(strings.TrimSpace(line), " ")
			if pkg != self && slices.Contains(strings.Fields(imports), self) {
				t.Errorf("%s imports %s outside its tests", pkg, self)
			}
		}
	}
}

// TestImportsOnly: a package that stays within what is allowed passes, and
// one that does not fails, naming the dependency.
func TestImportsOnly(t *testing.T) {
	t.Parallel()
	ImportsOnly(t, "github.com/asktray/asktray/app/question/present", "github.com/asktray/asktray/app/ellipsis", "github.com/asktray/asktray/app/question", "github.com/asktray/asktray/app/toolinput")
	ImportsNone(t, "github.com/asktray/asktray/app/question", "github.com/godbus/")
	var rec recorder
	ImportsOnly(&rec, "github.com/asktray/asktray/app/question/present")
	ImportsNone(&rec, ".", "github.com/godbus/")
	want := []string{
		"github.com/asktray/asktray/app/question/present depends on github.com/asktray/asktray/app/ellipsis; it may import only the standard library",
		"github.com/asktray/asktray/app/question/present depends on github.com/asktray/asktray/app/question; it may import only the standard library",
		"github.com/asktray/asktray/app/question/present depends on github.com/asktray/asktray/app/toolinput; it may import only the standard library",
		"github.com/asktray/asktray/internal/testkit depends on github.com/godbus/dbus/v5",
	}
	if !slices.Equal(rec.errs, want) {
		t.Fatalf("reported %q, want %q", rec.errs, want)
	}
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
