package preview

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
)

// WriteCases lets the page save what it rendered as a test case: on a
// template's page that rendered, Save as case posts the form's inputs and
// history to /case/{path}, and the server renders them again and adds the
// case, with the messages as its recorded result, to the template's cases
// file (cases.Add; a name already there is refused). rolemark
// serve gives it with --write-cases. Without it the page writes no file
// and the route does not exist.
func WriteCases() Option { return func(s *settings) { s.writeCases = true } }

// caseRequest is what the page posts to /case/{path}.
type caseRequest struct {
	// Form is the form of inputs, URL-encoded, as a render submits it.
	Form string `json:"form"`
	// Name names the new case.
	Name string `json:"name"`
}

// caseReply is the answer to a saved case: the cases file (a path in the
// directory) and the case's name.
type caseReply struct {
	File string `json:"file"`
	Case string `json:"case"`
}

// serveSaveCase renders the template with the posted form, as a render of
// the page does, and saves the inputs, the history and the messages as a
// new case of the template. It answers the file and the case as JSON, or
// a refusal as text: 404 for no such template, 403 for a template or cases
// file reached through a link out of the directory or a cases file that
// is a link, 400 for no name, one with a control character or one longer
// than the page's box takes (maxCaseName), 409 for a
// name already there, 422 for a form that does not parse, a template that
// does not render or a cases file that does not load.
func (s *Server) serveSaveCase(w http.ResponseWriter, r *http.Request) {
	var req caseRequest
	name, ok := s.posted(w, r, &req, "a case", "is saved")
	if !ok {
		return
	}
	caseName := strings.TrimSpace(req.Name)
	if caseName == "" {
		http.Error(w, "a case needs a name", http.StatusBadRequest)
		return
	}
	if strings.ContainsFunc(caseName, unicode.IsControl) {
		// rolemark test prints a case's name on its line of output
		// (FAIL FILE: NAME differs); the page's box holds one line.
		http.Error(w, "a case's name is one line, without control characters", http.StatusBadRequest)
		return
	}
	if n := utf16Len(caseName); n > maxCaseName {
		// the page's box takes no more (maxlength), and a longer name
		// posted by hand would make rolemark test's lines unreadable
		http.Error(w, "a case's name is at most "+strconv.Itoa(maxCaseName)+" characters", http.StatusBadRequest)
		return
	}
	if !s.inside(w, r, name, true) {
		return
	}
	rend, err := s.renderForm(r.Context(), name, req.Form)
	if err != nil {
		http.Error(w, "nothing to save: "+err.Error(), http.StatusUnprocessableEntity)
		return
	}
	file := cases.FileFor(s.set, s.fsys, withoutVariant(name))
	if !s.writable(w, r, file) {
		return
	}
	msgs := rend.msgs
	if msgs == nil {
		msgs = []chat.Message{}
	}
	c := cases.Case{Name: caseName, Inputs: rend.vars, History: rend.history, Want: &cases.Result{Messages: msgs}}
	s.saving.Lock()
	_, err = cases.Add(s.set, s.dir, name, c)
	s.saving.Unlock()
	var ee *engine.Error
	switch {
	case errors.Is(err, cases.ErrExists):
		http.Error(w, err.Error()+"; choose another name", http.StatusConflict)
		return
	case errors.As(err, &ee):
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	case err != nil:
		http.Error(w, "the case was not saved: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(caseReply{File: file, Case: caseName})
}

// maxCaseName is the most characters a case's name has: the page's box
// holds that many (its maxlength, which counts UTF-16 code units).
const maxCaseName = 200

// utf16Len returns the length of s in UTF-16 code units, as a browser
// counts an input's maxlength.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// inside answers a refusal and returns false when name (a path in the
// directory) leads out of it through a symbolic link, or does not exist
// and must (a template).
func (s *Server) inside(w http.ResponseWriter, r *http.Request, name string, mustExist bool) bool {
	_, err := fs.Stat(s.fsys, name)
	switch {
	case errors.Is(err, fs.ErrPermission):
		http.Error(w, name+": outside the directory (a symbolic link leads out of it)", http.StatusForbidden)
		return false
	case err != nil && mustExist:
		http.NotFound(w, r)
		return false
	}
	return true
}

// writable is inside for a file the page writes, which must not be a
// symbolic link either, wherever it points (cases.File.Save refuses it too).
func (s *Server) writable(w http.ResponseWriter, r *http.Request, name string) bool {
	if !s.inside(w, r, name, false) {
		return false
	}
	if info, err := os.Lstat(filepath.Join(s.dir, filepath.FromSlash(name))); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		http.Error(w, name+": a symbolic link; the page writes regular files only", http.StatusForbidden)
		return false
	}
	return true
}
