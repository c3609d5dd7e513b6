// Package caserun runs the saved test cases of prompts (cases.File,
// NAME.cases.yaml beside the prompt). `rolemark test` and the studio page
// of `rolemark serve` (internal/preview) both run them here, so that a case
// passes on the page exactly when it passes on the command line, and both
// walk a prompt directory with Walk, so that the page lists the cases the
// command runs (SkipDir: no hidden directory, no node_modules).
//
// It sits between engine, which reads and records cases but knows no
// output format, and the command line, which knows every format: the
// caller gives the Runner the function that writes a case's format.
package caserun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
)

// Formatter writes msgs as format prints them: a chat format's prompt
// string, markup, or a wire form. tools are the template's declared tools.
// A format hf:FILE names FILE as a path of the operating system.
type Formatter func(ctx context.Context, w io.Writer, msgs []chat.Message, format string, tools []chat.Tool) error

// Runner runs the cases files of one prompt directory. Its fields are set
// once; a Runner is then safe for concurrent use.
type Runner struct {
	// Set parses the prompts.
	Set *engine.Set
	// FS is the directory; Dir is its name on disk, under which a case's
	// format hf:FILE names its chat template.
	FS  fs.FS
	Dir string
	// Format writes a case's format; CheckFormat, when set, refuses a
	// format before any case of the file runs.
	Format      Formatter
	CheckFormat func(format string) error
	// Confine, when set, is asked about the file (a path in FS) of every
	// format hf:FILE before it is read, and refuses what must not be.
	Confine func(name string) error
}

// Outcome is one case run.
type Outcome struct {
	// Case is the case as its file writes it.
	Case cases.Case
	// Got is what it renders to now.
	Got cases.Result
}

// Passed reports whether the case renders what is recorded.
func (o Outcome) Passed() bool { return o.Case.Want.Equal(&o.Got) }

// Texts returns the recorded result and the result now as the cases file
// writes them (the key and its value), for a diff; want is empty when
// nothing is recorded.
func (o Outcome) Texts() (want, got string) {
	if o.Case.Want != nil {
		want, _ = o.Case.Want.YAML()
	}
	got, err := o.Got.YAML()
	if err != nil {
		got = err.Error() + "\n"
	}
	return want, got
}

// File reads the cases file name (a path in FS) and runs every case. It
// returns the file whenever it was read. err is what stops the cases from
// running at all: the file does not parse, the template does not compile,
// a format is unknown or not a file under Dir. Errors that name a file
// name it as a path in FS.
func (r *Runner) File(ctx context.Context, name string) (*cases.File, []Outcome, error) {
	f, err := cases.Read(r.Set, r.FS, name)
	if err != nil {
		return nil, nil, err
	}
	sub := path.Dir(name)
	compiled := map[string]*engine.Template{}
	formats := make([]string, len(f.Cases))
	for i, c := range f.Cases {
		if _, ok := compiled[c.Variant]; !ok {
			tpl, err := r.Set.ParseFS(r.FS, f.Prompt, engine.PartialRoot("."), engine.Variant(c.Variant))
			if err != nil {
				return f, nil, err
			}
			compiled[c.Variant] = tpl
		}
		if c.Format != "" {
			format, err := r.format(c.Format, sub)
			if err != nil {
				return f, nil, &engine.Error{Template: name, Err: fmt.Errorf("case %q: %v", c.Name, err)}
			}
			formats[i] = format
		}
	}
	out := make([]Outcome, len(f.Cases))
	for i, c := range f.Cases {
		run := c
		run.Format = formats[i]
		out[i] = Outcome{Case: c, Got: r.run(ctx, compiled[c.Variant], run, sub)}
	}
	return f, out, nil
}

// format returns a case's format as Format takes it, checked: hf:FILE
// names FILE relative to the cases file's directory (sub, in FS), and it
// must be a file under Dir, as the case's template is, so that a case
// renders alike from any directory and reads no file outside Dir.
func (r *Runner) format(format, sub string) (string, error) {
	if name, ok := strings.CutPrefix(format, "hf:"); ok {
		rel := path.Join(sub, filepath.ToSlash(name))
		if filepath.IsAbs(name) || !fs.ValidPath(rel) {
			return "", fmt.Errorf("format %s: the chat template must be a file under %s, named relative to the cases file", format, r.Dir)
		}
		if r.Confine != nil {
			if err := r.Confine(rel); err != nil {
				return "", fmt.Errorf("format %s: %v", format, err)
			}
		}
		format = "hf:" + filepath.Join(r.Dir, filepath.FromSlash(rel))
	}
	if r.CheckFormat != nil {
		if err := r.CheckFormat(format); err != nil {
			return "", err
		}
	}
	return format, nil
}

// run renders case c of tpl. Errors are results too; their messages name
// the template relative to the cases file's directory (dir), so that a
// recorded error does not depend on the directory the cases were run in.
func (r *Runner) run(ctx context.Context, tpl *engine.Template, c cases.Case, dir string) cases.Result {
	var opts []engine.RenderOption
	if c.History != nil {
		opts = append(opts, engine.History(c.History))
	}
	if c.Data != nil {
		opts = append(opts, engine.Data(c.Data))
	}
	fail := func(err error) cases.Result {
		rel := tpl.Name()
		if dir != "." {
			rel = strings.TrimPrefix(rel, dir+"/")
		}
		return cases.Result{Error: RenameTemplate(err, tpl.Name(), rel).Error()}
	}
	msgs, err := tpl.Messages(ctx, c.Inputs, opts...)
	if err != nil {
		return fail(err)
	}
	if c.Format == "" {
		if msgs == nil {
			msgs = []chat.Message{}
		}
		return cases.Result{Messages: msgs}
	}
	var b bytes.Buffer
	var tools []chat.Tool
	if fm := tpl.FrontMatter(); fm != nil {
		tools = fm.Tools
	}
	if err := r.Format(ctx, &b, msgs, c.Format, tools); err != nil {
		return fail(err)
	}
	return cases.Result{Text: b.String()}
}

// RenameTemplate makes an error that names the template from (an
// *engine.Error or an *fs.PathError) name it to instead, and returns it.
func RenameTemplate(err error, from, to string) error {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Template == from {
		ee.Template = to
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == from {
		pe.Path = to
	}
	return err
}
