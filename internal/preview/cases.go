package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/internal/caserun"
	"github.com/rolemark/rolemark/internal/linediff"
)

// CaseFormats gives the page what runs the cases' formats (a case's
// format: chatml, markup, hf:FILE …): format writes one, check refuses one
// before any case of the file runs. rolemark serve passes what rolemark
// test uses, so that a case passes on the page exactly when it passes
// there. Without it, a case with a format does not run: the page says so.
func CaseFormats(format caserun.Formatter, check func(format string) error) Option {
	return func(s *settings) { s.caseFormat, s.caseCheck = format, check }
}

// casesView is what the page shows of one cases file of the template.
type casesView struct {
	File string // a path in the directory
	// Errs is what stops the file's cases from running: the file does not
	// parse (at its line and column), the template does not compile, a
	// format is refused.
	Errs  []problem
	Cases []caseView
	// Ran says the cases were run (Run cases); Passed and Failed count them.
	Ran            bool
	Passed, Failed int
}

// caseView is one saved case: what it gives the template, what is
// recorded, and, once run, whether it passed and how it differs.
type caseView struct {
	Name, Variant, Format string
	Inputs                string // JSON
	History, Data         string // JSON, empty when the case has none
	Want                  string // the recorded result as the file writes it, empty when none
	Ran, Passed           bool
	Diff                  []unifiedLine // the unified diff of a failure, recorded against rendered
}

// unifiedLine is one line of a unified diff: Kind is "head" (--- and +++),
// "hunk" (@@), "del", "add" or "same".
type unifiedLine struct{ Kind, Text string }

// cases finds the cases files of the template name and lists their cases;
// run runs them as rolemark test does.
func (s *Server) cases(ctx context.Context, name string, run bool) []casesView {
	var out []casesView
	eng := "" // for a template that does not compile, as the page shows its errors
	if e, err := s.set.EngineFor(name); err == nil {
		eng = e.Name()
	}
	for _, file := range s.casesFiles(name) {
		v := casesView{File: file, Ran: run}
		var f *cases.File
		var outcomes []caserun.Outcome
		var err error
		if run {
			f, outcomes, err = s.caseRunner().File(ctx, file)
		} else {
			f, err = cases.Read(s.set, s.fsys, file)
		}
		if err != nil {
			v.Errs = s.problems(err, eng)
			v.Ran = false
		}
		if f != nil {
			for i, c := range f.Cases {
				cv := caseView{Name: c.Name, Variant: c.Variant, Format: c.Format, Inputs: jsonLine(orEmptyMap(c.Inputs))}
				if c.History != nil {
					cv.History = jsonLine(c.History)
				}
				if c.Data != nil {
					cv.Data = jsonLine(c.Data)
				}
				if c.Want != nil {
					cv.Want, _ = c.Want.YAML()
				}
				if i < len(outcomes) {
					o := outcomes[i]
					cv.Ran, cv.Passed = true, o.Passed()
					if cv.Passed {
						v.Passed++
					} else {
						v.Failed++
						want, got := o.Texts()
						prompt := engine.VariantFile(f.Prompt, c.Variant)
						cv.Diff = unifiedLines(linediff.Unified(file+": "+c.Name+" (recorded)", prompt+" (rendered)", want, got))
					}
				}
				v.Cases = append(v.Cases, cv)
			}
		}
		out = append(out, v)
	}
	return out
}

// casesFiles returns the cases files of the template name: those whose
// template is name (or the file name's variant is of), and a file beside it
// named for it that does not load, whose error the page shows. Only a file
// named for the template or holding its file's name (its template: key
// must) is parsed, so that a page of a directory of 500 cases files
// reads them all but parses one (BenchmarkCasesOfPage).
func (s *Server) casesFiles(name string) []string {
	base := withoutVariant(name)
	own := cases.FileFor(s.set, s.fsys, base)
	beside := strings.TrimSuffix(base, path.Ext(base)) + cases.Ext
	file := []byte(path.Base(base))
	var out []string
	for _, p := range s.allCasesFiles() {
		if p != own && p != beside {
			b, err := fs.ReadFile(s.fsys, p)
			if err != nil || !bytes.Contains(b, file) {
				continue
			}
		}
		f, err := cases.Read(s.set, s.fsys, p)
		if (err == nil && f.Prompt == base) || (err != nil && (p == own || p == beside)) {
			out = append(out, p)
		}
	}
	return out
}

// withoutVariant returns the file of the prompt whose Dotprompt variant
// the template file name is (bank.formal.prompt: bank.prompt), or name.
func withoutVariant(name string) string {
	if n, v := engine.SplitVariant(name); v != "" {
		return n + path.Ext(name)
	}
	return name
}

// caseRunner returns the runner of the directory's cases: the formats
// rolemark serve gave, and no chat template reached through a link out of
// the directory.
func (s *Server) caseRunner() *caserun.Runner {
	r := &caserun.Runner{Set: s.set, FS: s.fsys, Dir: s.dir, Format: s.cfg.caseFormat, CheckFormat: s.cfg.caseCheck,
		Confine: func(name string) error {
			_, err := fs.Stat(s.fsys, name)
			return err
		}}
	if r.Format == nil {
		r.CheckFormat = func(format string) error { return errNoCaseFormats }
	}
	return r
}

// errNoCaseFormats is why a case with a format does not run on a page
// made without CaseFormats.
var errNoCaseFormats = errors.New("this page runs no case formats (preview.CaseFormats)")

// unifiedLines splits a unified diff into its lines, each with its kind.
func unifiedLines(diff []byte) []unifiedLine {
	var out []unifiedLine
	for _, l := range strings.SplitAfter(string(diff), "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		kind := "same"
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "):
			kind = "head"
		case strings.HasPrefix(l, "@@"):
			kind = "hunk"
		case strings.HasPrefix(l, "-"):
			kind = "del"
		case strings.HasPrefix(l, "+"):
			kind = "add"
		}
		out = append(out, unifiedLine{Kind: kind, Text: l})
	}
	return out
}

// jsonLine writes v as JSON on one line, with <, > and & as they are (the
// page escapes what it shows).
func jsonLine(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "error: " + err.Error()
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
