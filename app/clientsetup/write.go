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
	"strings"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
)

// Write merges t into its client's config file, keeping everything else
// there. It backs the old file up first (<file>.bak-<time>, 0600), keeps the
// file's mode (0600 for a new one) and creates missing parent dirs 0700. A file
// it cannot parse is left untouched: it prints the snippet and says to add it
// by hand. It reports what it did to out; it blocks on the file system only.
func (t Target) Write(out io.Writer) error {
	path, old, mode, exists, err := readConfigFile(t.Path)
	if err != nil {
		return err
	}
	var merged []byte
	if t.rootKey == "" {
		merged, err = mergeTOMLTable(old, t.toml)
	} else {
		merged, err = mergeJSONServer(old, t.rootKey, t.entry)
	}
	if err != nil {
		if perr := t.Print(out); perr != nil {
			return perr
		}
		return fmt.Errorf("%s: %w\nasktray left the file untouched; add the %s entry printed above to it by hand", path, err, ServerName)
	}
	if exists && bytes.Equal(merged, old) {
		fmt.Fprintf(out, "%s already holds this %s setup; nothing to change.\n", path, ServerName)
		return nil
	}
	backup := ""
	if exists {
		if backup, err = writeBackup(path, old); err != nil {
			return err
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, merged, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if exists {
		fmt.Fprintf(out, "Added the %s server to %s.\nThe previous file is in %s.\n", ServerName, path, backup)
	} else {
		fmt.Fprintf(out, "Created %s with the %s server.\n", path, ServerName)
	}
	fmt.Fprintln(out, t.AfterNote())
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

// mergeJSONServer sets old[rootKey]["asktray"] = entry and returns the whole
// document again, 2-space indented. Every other key is kept (numbers keep
// their exact text; key order is not kept). Empty input counts as {}; input
// that is not a JSON object (JSONC with comments, for one) is an error.
func mergeJSONServer(old []byte, rootKey string, entry jsonServer) ([]byte, error) {
	old = bytes.TrimPrefix(old, []byte("\xef\xbb\xbf"))
	root := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(old))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not plain JSON (%w); comments and trailing commas are not understood here", err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, errors.New("not plain JSON: more follows the top-level value")
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errors.New("the top level is not a JSON object")
		}
		root = m
	}
	servers := map[string]any{}
	switch s := root[rootKey].(type) {
	case nil:
	case map[string]any:
		servers = s
	default:
		return nil, fmt.Errorf("%q is not a JSON object", rootKey)
	}
	servers[ServerName] = entry
	root[rootKey] = servers
	return encodeJSON(root)
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
