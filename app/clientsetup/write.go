package clientsetup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tailscale/hujson"

	"github.com/asktray/asktray/app/atomicfile"
)

// Write merges t into its client's config file, keeping everything else
// there, comments and layout included. It backs the old file up first
// (<file>.bak-<time>, 0600), creates missing parent dirs 0700, and keeps the
// file's mode, except that a file holding the token is made 0600 (and out
// says so). A file it cannot parse is left untouched: it prints the snippet
// and says to add it by hand. It reports what it did to out; it blocks on the
// file system only.
func (t Target) Write(out io.Writer) error {
	path, old, mode, exists, err := readConfigFile(t.Path)
	if err != nil {
		return err
	}
	merged, err := t.merge(old)
	if err != nil {
		if perr := t.Print(out); perr != nil {
			return perr
		}
		return fmt.Errorf("%s: %w\nasktray left the file untouched; add the %s entry printed above to it by hand", path, err, ServerName)
	}
	t.warnTrailing(out, path, old)
	newMode := mode
	if !t.Stdio && mode&0o077 != 0 {
		newMode = 0o600 // the entry holds the bearer token
	}
	if exists && bytes.Equal(merged, old) {
		fmt.Fprintf(out, "%s already holds this %s setup; nothing to change.\n", path, ServerName)
		return tightenMode(path, mode, newMode, out)
	}
	backup, err := prepare(path, old, exists)
	if err != nil {
		return err
	}
	if err := writeFile(path, merged, newMode); err != nil {
		return err
	}
	if exists {
		fmt.Fprintf(out, "Added the %s server to %s.\nThe previous file is in %s.\n", ServerName, path, backup)
		if newMode != mode {
			fmt.Fprintf(out, "Its mode was %#o; it is now %#o, because it holds the token.\n", mode, newMode)
		}
	} else {
		fmt.Fprintf(out, "Created %s with the %s server.\n", path, ServerName)
	}
	fmt.Fprintln(out, t.AfterNote())
	return nil
}

// merge returns old with t's entry in it.
func (t Target) merge(old []byte) ([]byte, error) {
	if t.rootPath == nil {
		return mergeTOMLTable(old, t.toml)
	}
	d, err := parseJSONDoc(old, t.jsonc)
	if err != nil {
		return nil, err
	}
	d.noTrailing = t.noTrailing
	found := false
	for _, root := range append([][]string{t.rootPath}, t.altRoots...) {
		path := append(slices.Clone(root), ServerName)
		if v := d.find(path...); v != nil {
			found = true
			if err := d.mergeEntry(path, t.entry); err != nil {
				return nil, err
			}
		}
	}
	if !found {
		if err := d.set(append(slices.Clone(t.rootPath), ServerName), t.entry); err != nil {
			return nil, err
		}
	}
	return d.bytes(), nil
}

// warnTrailing says where the person's file has trailing commas, for a
// client that refuses them (Gemini CLI); asktray adds none there.
func (t Target) warnTrailing(out io.Writer, path string, old []byte) {
	if !t.noTrailing {
		return
	}
	d, err := parseJSONDoc(old, true)
	if err != nil || len(d.trailing) == 0 {
		return
	}
	lines := make([]string, len(d.trailing))
	for i, n := range d.trailing {
		lines[i] = strconv.Itoa(n)
	}
	fmt.Fprintf(out, "Note: %s has a trailing comma (line %s), which %s rejects: remove it there.\n"+
		"asktray added none.\n", path, strings.Join(lines, ", "), t.Title)
}

// mergeEntry makes the server entry at path entry: the keys asktray owns are
// set (or removed when entry lacks them), the default keys are added only
// where missing, and every other key stays as it was: in headers only the
// Authorization header is asktray's, and Gemini CLI's httpUrl is renamed url
// in its place. An entry that is not an object is replaced.
func (d *jsonDoc) mergeEntry(path []string, entry any) error {
	if _, ok := d.find(path...).Value.(*hujson.Object); !ok {
		return d.set(path, entry)
	}
	raw, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	v, err := hujson.Parse(raw)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, m := range v.Value.(*hujson.Object).Members {
		want[m.Name.Value.(hujson.Literal).String()] = true
	}
	if want["url"] && !want["httpUrl"] {
		// Gemini CLI's deprecated httpUrl becomes url where it stands.
		d.renameMember(path, "httpUrl", "url")
	}
	for _, k := range ownedKeys {
		if !want[k] {
			if err := d.remove(append(slices.Clone(path), k)...); err != nil {
				return err
			}
		}
	}
	for _, m := range v.Value.(*hujson.Object).Members {
		k := m.Name.Value.(hujson.Literal).String()
		if slices.Contains(defaultKeys, k) && d.find(append(slices.Clone(path), k)...) != nil {
			continue
		}
		if k == "headers" {
			if ok, err := d.mergeHeaders(append(slices.Clone(path), k), m.Value); ok || err != nil {
				return err
			}
		}
		if err := d.setMember(path, k, json.RawMessage(m.Value.Pack())); err != nil {
			return err
		}
	}
	return nil
}

// mergeHeaders sets asktray's headers (Authorization) inside the person's
// headers object at path, keeping their other headers; a header the person
// spells in another case ("authorization") is set under their spelling, so
// that no request carries two. It reports false when there is no object at
// path to merge into.
func (d *jsonDoc) mergeHeaders(path []string, headers hujson.Value) (bool, error) {
	at := d.find(path...)
	if at == nil {
		return false, nil
	}
	have, ok := at.Value.(*hujson.Object)
	if !ok {
		return false, nil
	}
	for _, m := range headers.Value.(*hujson.Object).Members {
		name := m.Name.Value.(hujson.Literal).String()
		for _, o := range have.Members {
			if other := o.Name.Value.(hujson.Literal).String(); strings.EqualFold(other, name) {
				name = other
				break
			}
		}
		if err := d.setMember(path, name, json.RawMessage(m.Value.Pack())); err != nil {
			return true, err
		}
	}
	return true, nil
}

// renameMember renames the member from of the object at path to to, in its
// place, when the object has from and not to.
func (d *jsonDoc) renameMember(path []string, from, to string) {
	at := d.find(path...)
	if at == nil || d.find(append(slices.Clone(path), to)...) != nil {
		return
	}
	obj, ok := at.Value.(*hujson.Object)
	if !ok {
		return
	}
	for i, m := range obj.Members {
		if m.Name.Value.(hujson.Literal).String() == from {
			obj.Members[i].Name.Value = hujson.String(to)
		}
	}
}

// writeFile writes data to path atomically with mode.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	if err := atomicfile.Write(path, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// prepare backs up the old file, or makes the dirs a new one goes in.
func prepare(path string, old []byte, exists bool) (backup string, err error) {
	if exists {
		return writeBackup(path, old)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return "", nil
}

// tightenMode changes path's mode from mode to newMode when they differ, and
// says so on out.
func tightenMode(path string, mode, newMode fs.FileMode, out io.Writer) error {
	if mode == newMode {
		return nil
	}
	if err := os.Chmod(path, newMode); err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	fmt.Fprintf(out, "Its mode was %#o; it is now %#o, because it holds the token.\n", mode, newMode)
	return nil
}

// readConfigFile reads the config file at path, following a symlink to the
// file it names (so that the link stays a link). It returns the path to write,
// the old content, the mode to keep and whether the file exists.
func readConfigFile(path string) (target string, old []byte, mode fs.FileMode, exists bool, err error) {
	target, mode = path, 0o600
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", nil, 0, false, fmt.Errorf("follow the link %s: %w", path, err)
		}
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, nil, mode, false, nil
	case err != nil:
		return "", nil, 0, false, err
	case !fi.Mode().IsRegular():
		return "", nil, 0, false, fmt.Errorf("%s is not a regular file", target)
	}
	old, err = os.ReadFile(target)
	if err != nil {
		return "", nil, 0, false, err
	}
	return target, old, fi.Mode().Perm(), true, nil
}

// writeBackup copies old to a new <path>.bak-<time> with mode 0600 and returns its name.
func writeBackup(path string, old []byte) (string, error) {
	base := path + ".bak-" + time.Now().Format("20060102-150405")
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		_, err = f.Write(old)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		return name, nil
	}
}

// encodeJSON is json.MarshalIndent with 2 spaces, no HTML escaping and a final newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// shellJoin quotes args for a POSIX shell, or for PowerShell/cmd on Windows.
func shellJoin(goos string, args ...string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(goos, a)
	}
	return strings.Join(out, " ")
}

func shellQuote(goos, s string) string {
	safe := s != ""
	for _, r := range s {
		if !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,", r) {
			safe = false
			break
		}
	}
	switch {
	case safe:
		return s
	case goos == "windows":
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	case strings.Contains(s, "!"): // history expansion reaches into "…" in bash
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	default:
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s) + `"`
	}
}
