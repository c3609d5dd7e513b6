package preview

import (
	"context"
	"sort"

	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/internal/caserun"
)

// dirCases is what the index shows of the directory's cases: each cases
// file, and once run (Run all cases, what rolemark test DIR runs), the
// counts and the cases that failed.
type dirCases struct {
	Ran   bool
	Files []fileCases
	// Cases, Failed and LoadErrs count over the files once run.
	Cases, Failed, LoadErrs int
}

// fileCases is one cases file on the index.
type fileCases struct {
	File     string
	Template string // the template its cases are of; empty when the file does not load
	N        int    // its cases
	// Passed and Failing are the run's: the count that passed, and the
	// names of those that did not.
	Passed  int
	Failing []string
	Errs    []problem
}

// allCases lists every cases file of the directory; run runs each.
func (s *Server) allCases(ctx context.Context, run bool) *dirCases {
	files := s.allCasesFiles()
	if len(files) == 0 {
		return nil
	}
	d := &dirCases{Ran: run}
	runner := s.caseRunner()
	for _, file := range files {
		fc := fileCases{File: file}
		var f *cases.File
		var err error
		if run {
			var outcomes []caserun.Outcome
			f, outcomes, err = runner.File(ctx, file)
			for _, o := range outcomes {
				d.Cases++
				if o.Passed() {
					fc.Passed++
				} else {
					d.Failed++
					fc.Failing = append(fc.Failing, o.Case.Name)
				}
			}
		} else {
			f, err = cases.Read(s.set, s.fsys, file)
		}
		if f != nil {
			fc.Template, fc.N = f.Prompt, len(f.Cases)
		}
		if err != nil {
			fc.Errs = s.problems(err, "")
			if run {
				d.LoadErrs++
			}
		}
		d.Files = append(d.Files, fc)
	}
	return d
}

// allCasesFiles returns every cases file of the directory that rolemark
// test runs (caserun.Files), sorted.
func (s *Server) allCasesFiles() []string {
	out, _ := caserun.Files(s.fsys)
	sort.Strings(out)
	return out
}
