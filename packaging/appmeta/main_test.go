package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: fields come out one a line, in the order asked, lists joined
// with ";"; unknown, empty and multi-line fields and bad TOML are errors
// that name the field or the line.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.toml", `Website = "https://example.org"
Description = "Asks you."
Maintainer = "A Person <a@example.org>"

[Details]
Icon = "assets/icon.png"
Name = "Asktray"
ID = "app.asktray.desktop"
Version = "1.2.3"
Build = 4

[LinuxAndBSD]
GenericName = "Tray"
Categories = ["Utility", "Network"]
Keywords = ["mcp"]
`)
	var out strings.Builder
	if err := run([]string{"-f", good, "version", "name", "maintainer", "categories", "build", "description"}, &out); err != nil {
		t.Fatal(err)
	}
	want := "1.2.3\nAsktray\nA Person <a@example.org>\nUtility;Network\n4\nAsks you.\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", good, "colour"}, `unknown field "colour"`},
		{[]string{"-f", good, "comment"}, "field comment is empty"},
		{[]string{"-f", good}, "name at least one field"},
		{[]string{"-f", filepath.Join(dir, "none.toml"), "name"}, "none.toml"},
		{[]string{"-f", write("multi.toml", "Description = \"\"\"a\nb\"\"\"\n"), "description"}, "field description spans more than one line"},
		{[]string{"-f", write("bad.toml", "[Details]\nName = \n"), "name"}, "line 2"},
	} {
		err := run(c.args, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}

// TestRepoFyneApp: the repository's FyneApp.toml has every field the
// packages use.
func TestRepoFyneApp(t *testing.T) {
	var out strings.Builder
	fields := []string{"name", "id", "version", "description", "maintainer", "website", "icon", "generic-name", "comment", "categories"}
	if err := run(append([]string{"-f", "../../FyneApp.toml"}, fields...), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != len(fields) {
		t.Errorf("%d lines for %d fields:\n%s", n, len(fields), out.String())
	}
}
