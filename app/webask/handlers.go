package webask

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// get serves the page of a pending question to whoever holds its key. Runs
// on an HTTP server goroutine.
func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.check(id, r.URL.Query().Get("k")) {
		s.notFound(w)
		return
	}
	q, res, err := s.cfg.Broker.Get(id)
	if err != nil || res != nil {
		s.notFound(w)
		return
	}
	v, err := newView(q, s.cfg.Home, s.cfg.Broker.SessionStart(q.Client))
	if err != nil {
		s.log.Error("cannot render question page", "id", id, "err", err)
		s.notFound(w)
		return
	}
	s.removeOpens(id) // the forwarding file did its work
	v.Password = s.passwordField(r, &q)
	s.serveForm(w, http.StatusOK, v, r.URL.Query().Get("k"))
}

// serveForm renders v with a fresh form token.
func (s *Server) serveForm(w http.ResponseWriter, status int, v *view, key string) {
	v.Token = s.newPage(v.Q.ID)
	if v.Token == "" {
		s.notFound(w)
		return
	}
	v.Key = key
	v.ArmMS = s.armDelay().Milliseconds()
	v.focusProblem()
	s.render(w, status, "question", v)
}

// post takes an answer: it needs the question's key and an unspent form
// token of a page served at least the arming delay ago. A response the
// question refuses comes back as the page with the person's input and the
// problems next to their fields. Runs on an HTTP server goroutine.
func (s *Server) post(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		s.plain(w, http.StatusUnsupportedMediaType, "Unsupported Media Type: POST a form")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			s.plain(w, http.StatusRequestEntityTooLarge, "Request Entity Too Large: at most 1 MiB")
			return
		}
		s.plain(w, http.StatusBadRequest, "Bad Request: the form could not be read")
		return
	}
	key := r.PostForm.Get("k")
	served, ok := s.takePage(id, key, r.PostForm.Get("t"))
	if !ok {
		s.notFound(w)
		return
	}
	q, res, err := s.cfg.Broker.Get(id)
	if err != nil {
		s.notFound(w)
		return
	}
	if res != nil {
		s.render(w, http.StatusConflict, "result", resultView(q, *res, true, s.cfg.Home, s.cfg.Broker.SessionStart(q.Client)))
		return
	}
	v, err := newView(q, s.cfg.Home, s.cfg.Broker.SessionStart(q.Client))
	if err != nil {
		s.notFound(w)
		return
	}
	v.Password = s.passwordField(r, &q)
	resp, ferr := v.read(r.PostForm)
	since := s.cfg.Now().Sub(served)
	if since < s.armDelay() {
		v.Error = "Too soon: the answer buttons had not unlocked yet. Check your answer and send it again."
		s.log.Info("web answer refused: too soon", "id", id, "since_served_ms", since.Milliseconds())
		s.serveForm(w, http.StatusTooManyRequests, v, key)
		return
	}
	if present.Unseen(&q) != "" && (present.RefusesUnseen(&q, resp) || r.PostForm.Get("action") == "allow") {
		v.Error = present.UnseenReason
		s.log.Warn("web allow of a request too long to show refused", "id", id)
		s.serveForm(w, http.StatusForbidden, v, key)
		return
	}
	if ferr != nil {
		v.Error = present.UpperFirst(ferr.Error())
		s.serveForm(w, http.StatusUnprocessableEntity, v, key)
		return
	}
	if q.Approves(resp) {
		if perr := s.prove(w, r, id); perr != nil {
			v.Password.Error = present.UpperFirst(perr.Error())
			v.Focus = "password"
			s.serveForm(w, http.StatusForbidden, v, key)
			return
		}
	}
	resp.Via = question.ViaWeb
	if s.record(w, id, key, v, s.cfg.Broker.Answer(id, resp)) {
		s.log.Info("question answered in browser", "id", id, "kind", string(q.Kind), "client", q.Client.DisplayName(),
			"action", string(resp.Action), "since_served_ms", since.Milliseconds())
		s.showResult(w, id)
	}
}

// record shows the page again, or the result of an answer that came too
// late, when err (the broker's answer to the post) says so, and reports
// whether the answer was taken instead.
func (s *Server) record(w http.ResponseWriter, id, key string, v *view, err error) bool {
	switch {
	case errors.Is(err, question.ErrInvalid):
		v.fieldError(err)
		s.serveForm(w, http.StatusUnprocessableEntity, v, key)
		return false
	case errors.Is(err, question.ErrNotPending), errors.Is(err, question.ErrNotFound), errors.Is(err, question.ErrClosed):
		q, res, gerr := s.cfg.Broker.Get(id)
		if gerr != nil || res == nil {
			s.notFound(w)
			return false
		}
		s.render(w, http.StatusConflict, "result", resultView(q, *res, true, s.cfg.Home, s.cfg.Broker.SessionStart(q.Client)))
		return false
	case err != nil:
		v.Error = fmt.Sprintf("Could not record the answer: %v", err)
		s.serveForm(w, http.StatusInternalServerError, v, key)
		return false
	}
	return true
}

// showResult shows the result page of question id, just answered.
func (s *Server) showResult(w http.ResponseWriter, id string) {
	q, res, err := s.cfg.Broker.Get(id)
	if err != nil || res == nil {
		s.render(w, http.StatusOK, "result", &view{Title: "Answer sent", Result: &resultText{Outcome: "Answer sent."}})
		return
	}
	s.render(w, http.StatusOK, "result", resultView(q, *res, false, s.cfg.Home, s.cfg.Broker.SessionStart(q.Client)))
}

// notFound answers every unknown id, wrong key, spent link or stale form
// token alike, so the page reveals nothing.
func (s *Server) notFound(w http.ResponseWriter) {
	s.render(w, http.StatusNotFound, "notfound", &view{Title: "No question here"})
}

// render writes template name with v.
func (s *Server) render(w http.ResponseWriter, status int, name string, v *view) {
	v.Style, v.Script = styleCSS, armJS
	var b strings.Builder
	if err := pages.ExecuteTemplate(&b, name, v); err != nil {
		s.log.Error("render web page", "template", name, "err", err)
		s.plain(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(b.String()))
}
