// Command appmeta prints fields of FyneApp.toml, one a line, for the
// packaging scripts (package-deb.sh, winres.sh), so that no script parses
// TOML itself.
//
//	appmeta [-f FyneApp.toml] FIELD...
//
// Fields: name, id, version, build, description, maintainer, website, icon,
// generic-name, comment, categories and keywords (both joined with ";").
// A field that is empty or spans lines is an error naming it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// fyneApp is the part of FyneApp.toml the packages use: fyne's own fields
// plus Maintainer, which fyne ignores and the Debian package needs.
type fyneApp struct {
	Website     string
	Description string
	Maintainer  string
	Details     struct {
		Icon, Name, ID, Version string
		Build                   int
	}
	LinuxAndBSD struct {
		GenericName, Comment string
		Categories, Keywords []string
	}
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "appmeta:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("appmeta", flag.ContinueOnError)
	file := fs.String("f", "FyneApp.toml", "the metadata file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("name at least one field")
	}
	var m fyneApp
	if _, err := toml.DecodeFile(*file, &m); err != nil {
		return fmt.Errorf("read %s: %w", *file, err)
	}
	for _, name := range fs.Args() {
		v, err := field(m, name)
		if err != nil {
			return fmt.Errorf("%s: %w", *file, err)
		}
		if _, err := fmt.Fprintln(out, v); err != nil {
			return err
		}
	}
	return nil
}

// field returns the value of the named field, which must be one line.
func field(m fyneApp, name string) (string, error) {
	values := map[string]string{
		"name":         m.Details.Name,
		"id":           m.Details.ID,
		"version":      m.Details.Version,
		"build":        strconv.Itoa(m.Details.Build),
		"description":  m.Description,
		"maintainer":   m.Maintainer,
		"website":      m.Website,
		"icon":         m.Details.Icon,
		"generic-name": m.LinuxAndBSD.GenericName,
		"comment":      m.LinuxAndBSD.Comment,
		"categories":   strings.Join(m.LinuxAndBSD.Categories, ";"),
		"keywords":     strings.Join(m.LinuxAndBSD.Keywords, ";"),
	}
	v, ok := values[name]
	switch {
	case !ok:
		return "", fmt.Errorf("unknown field %q", name)
	case strings.TrimSpace(v) == "" || v == "0" && name == "build":
		return "", fmt.Errorf("field %s is empty", name)
	case strings.ContainsAny(v, "\r\n"):
		return "", fmt.Errorf("field %s spans more than one line", name)
	}
	return v, nil
}
