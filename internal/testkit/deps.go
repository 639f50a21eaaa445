package testkit

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps lists what the package pkg (a go list pattern such as ".") builds
// from, itself included: its import path and, outside the standard library
// when nonStd is set, every dependency.
func deps(t testing.TB, pkg string, nonStd bool) (self string, all []string) {
	t.Helper()
	format := "{{.ImportPath}}"
	if nonStd {
		format = "{{if not .Standard}}{{.ImportPath}}{{end}}"
	}
	out, err := exec.Command("go", "list", "-deps", "-f", format, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	name, err := exec.Command("go", "list", pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	return strings.TrimSpace(string(name)), strings.Fields(string(out))
}

// ImportsOnly fails t for every package that pkg (a go list pattern such as
// ".") depends on outside the standard library, itself and allowed. An
// allowed import path also allows the packages below it. It runs go list,
// so it blocks for a moment.
func ImportsOnly(t testing.TB, pkg string, allowed ...string) {
	t.Helper()
	self, all := deps(t, pkg, true)
	for _, p := range all {
		ok := p == self || slices.ContainsFunc(allowed, func(a string) bool { return p == a || strings.HasPrefix(p, a+"/") })
		if !ok {
			t.Errorf("%s depends on %s; it may import only the standard library%s", self, p, andList(allowed))
		}
	}
}

// ImportsNone fails t for every package that pkg depends on whose import
// path starts with one of the banned prefixes (such as "fyne.io/").
func ImportsNone(t testing.TB, pkg string, banned ...string) {
	t.Helper()
	self, all := deps(t, pkg, false)
	for _, p := range all {
		for _, b := range banned {
			if strings.HasPrefix(p, b) {
				t.Errorf("%s depends on %s", self, p)
			}
		}
	}
}

func andList(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	short := make([]string, len(paths))
	for i, p := range paths {
		short[i] = strings.TrimPrefix(p, "github.com/asktray/asktray/")
	}
	return " and " + strings.Join(short, ", ")
}
