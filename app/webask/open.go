package webask

import (
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
)

// openFilePrefix starts the name of every forwarding file in the data dir.
const openFilePrefix = "open-"

// openFileLife is how long a forwarding file is kept when its page is never
// opened; opening the page, or the question ending, removes it sooner.
const openFileLife = 2 * time.Minute

var forwardPage = template.Must(template.New("").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url={{.}}"><title>Asktray</title></head>
<body><p><a href="{{.}}">Open the question in Asktray</a></p></body></html>
`))

// OpenFile writes a file that forwards a browser to pending question id's
// page and returns its path, to be opened in the browser instead of the
// link itself: a link on a command line (xdg-open's, the browser's) is in
// /proc/PID/cmdline for every local user to read, a file in the 0700 data
// dir with mode 0600 is not. The file is removed when the page is opened,
// when the question ends, or after two minutes. It does not block; any
// goroutine may call it.
func (s *Server) OpenFile(id string) (string, error) {
	if s.cfg.Dir == "" {
		return "", errors.New("no data dir to write the forwarding file in")
	}
	link := s.URL(id)
	if link == "" {
		return "", errors.New("the question's page is gone: it has ended")
	}
	var b strings.Builder
	if err := forwardPage.Execute(&b, link); err != nil {
		return "", fmt.Errorf("forwarding file: %w", err)
	}
	path := filepath.Join(s.cfg.Dir, openFilePrefix+randomToken()[:16]+".html")
	if err := atomicfile.Write(path, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("forwarding file: %w", err)
	}
	s.mu.Lock()
	s.opens[id] = append(s.opens[id], path)
	s.mu.Unlock()
	time.AfterFunc(openFileLife, func() { s.removeOpen(id, path) })
	return path, nil
}

// removeOpens removes the forwarding files of question id, or every one
// when id is "". It does not block.
func (s *Server) removeOpens(id string) {
	s.mu.Lock()
	var paths []string
	for qid, ps := range s.opens {
		if id == "" || qid == id {
			paths = append(paths, ps...)
			delete(s.opens, qid)
		}
	}
	s.mu.Unlock()
	for _, p := range paths {
		_ = os.Remove(p)
	}
}

// removeOpen removes one forwarding file of question id.
func (s *Server) removeOpen(id, path string) {
	s.mu.Lock()
	ps := s.opens[id]
	for i, p := range ps {
		if p == path {
			s.opens[id] = append(ps[:i], ps[i+1:]...)
			break
		}
	}
	if len(s.opens[id]) == 0 {
		delete(s.opens, id)
	}
	s.mu.Unlock()
	_ = os.Remove(path)
}

// removeStaleOpens removes the forwarding files an earlier run of the app
// left in dir (it stopped before removing them). It does not block.
func removeStaleOpens(dir string) {
	if dir == "" {
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, openFilePrefix+"*.html"))
	for _, p := range old {
		_ = os.Remove(p)
	}
}
