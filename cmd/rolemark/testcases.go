package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/linediff"
)

const testArgs = "[--update] [--tools FILE] DIR..."

const testAbout = `Renders every test case under each DIR (the cases of NAME.prompt, NAME.hbs … are in
NAME.cases.yaml beside it) and compares the result with the one recorded there: the messages as
their OpenAI JSON, or the output of the case's format. Prints a unified diff for each case that
differs, and a last line with the counts. With --update it records the result of every case that
differs or has none, keeping the rest of the file as written. Exit status: 0 when every case
passes (or is recorded), 1 when one differs, 2 for a usage error or a file that cannot be loaded.
`

// testRun counts what rolemark test found.
type testRun struct {
	cases, files, failed, updated, loadErrs int
}

func cmdTest(ctx context.Context, sio stdio, args []string) error {
	fl := newFlags("test")
	update := fl.Bool("update", false, "record the result of every case that differs or has none")
	tools := toolsOfFrontMatter(fl)
	operands, err := parseOperands(fl, args, 1, -1, "test takes one or more directories")
	if err != nil {
		return err
	}
	for _, dir := range operands {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return usageErr("%s is not a directory", dir)
		}
	}
	set := newSet()
	if err := tools(set); err != nil {
		return err
	}
	var r testRun
	for _, dir := range operands {
		if err := r.dir(ctx, sio, set, dir, *update); err != nil {
			return err
		}
	}
	switch {
	case r.loadErrs > 0:
		fmt.Fprintf(sio.out, "FAIL\t%d of %d cases differ; %d load errors (on standard error)\n", r.failed, r.cases, r.loadErrs)
		return errUsageSilent{}
	case r.failed > 0:
		fmt.Fprintf(sio.out, "FAIL\t%d of %d cases differ; rolemark test --update records what they render now\n", r.failed, r.cases)
		return errSilent{}
	case r.updated > 0:
		fmt.Fprintf(sio.out, "ok\t%d cases in %d files; recorded %d\n", r.cases, r.files, r.updated)
	case r.files == 0:
		fmt.Fprintf(sio.out, "ok\tno test cases (NAME%s beside a prompt)\n", engine.CasesExt)
	default:
		fmt.Fprintf(sio.out, "ok\t%d cases in %d files\n", r.cases, r.files)
	}
	return nil
}

// errUsageSilent is exit status 2 after the command has said why (main.go's
// exec).
type errUsageSilent struct{}

func (errUsageSilent) Error() string { return "usage" }

// dir runs the cases files under dir.
func (r *testRun) dir(ctx context.Context, sio stdio, set *engine.Set, dir string, update bool) error {
	fsys := os.DirFS(dir)
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, engine.CasesExt) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		r.file(ctx, sio, set, fsys, dir, p, update)
	}
	return nil
}

// file runs the cases of one file.
func (r *testRun) file(ctx context.Context, sio stdio, set *engine.Set, fsys fs.FS, dir, p string, update bool) {
	shown := filepath.Join(dir, filepath.FromSlash(p))
	loadErr := func(err error) {
		r.loadErrs++
		fmt.Fprintln(sio.err, renameInDir(err, dir))
	}
	f, err := set.ReadCases(fsys, p)
	if err != nil {
		loadErr(err)
		return
	}
	r.files++
	compiled := map[string]*engine.Template{}
	changed := false
	for _, c := range f.Cases {
		if _, ok := compiled[c.Variant]; !ok {
			tpl, err := set.ParseFS(fsys, f.Prompt, engine.PartialRoot("."), engine.Variant(c.Variant))
			if err != nil {
				loadErr(err)
				return
			}
			compiled[c.Variant] = tpl
		}
		if c.Format != "" {
			format, err := caseFormat(c.Format, dir, path.Dir(p))
			if err == nil {
				err = checkFormat(format, false)
			}
			if err != nil {
				loadErr(fmt.Errorf("%s: case %q: %v", shown, c.Name, err))
				return
			}
		}
	}
	for i, c := range f.Cases {
		r.cases++
		run := c
		run.Format, _ = caseFormat(c.Format, dir, path.Dir(p)) // checked above
		got := runCase(ctx, compiled[c.Variant], run, path.Dir(p))
		if c.Want.Equal(&got) {
			continue
		}
		if update {
			if err := f.Record(i, got); err != nil {
				loadErr(fmt.Errorf("%s: case %q: %v", shown, c.Name, err))
				return
			}
			changed = true
			r.updated++
			fmt.Fprintf(sio.out, "recorded %s: %s\n", shown, c.Name)
			continue
		}
		r.failed++
		want := ""
		if c.Want != nil {
			want, _ = c.Want.YAML()
		}
		have, err := got.YAML()
		if err != nil {
			have = err.Error() + "\n"
		}
		what := "differs"
		if c.Want == nil {
			what = "has no recorded result"
		}
		fmt.Fprintf(sio.out, "FAIL %s: %s %s\n", shown, c.Name, what)
		shownPrompt := filepath.Join(dir, filepath.FromSlash(engine.VariantFile(f.Prompt, c.Variant)))
		sio.out.Write(linediff.Unified(shown+": "+c.Name+" (recorded)", shownPrompt+" (rendered)", want, have))
	}
	if changed {
		b, err := f.Marshal()
		if err == nil {
			err = os.WriteFile(shown, b, 0o644)
		}
		if err != nil {
			loadErr(err)
		}
	}
}

// caseFormat returns a case's format as rolemark render takes it: hf:FILE
// names FILE relative to the cases file's directory (sub, inside dir), and
// it must be a file under dir, as the case's template is, so that a case
// renders alike from any directory and reads no file outside dir.
func caseFormat(format, dir, sub string) (string, error) {
	name, ok := strings.CutPrefix(format, "hf:")
	if !ok {
		return format, nil
	}
	rel := path.Join(sub, filepath.ToSlash(name))
	if filepath.IsAbs(name) || !fs.ValidPath(rel) {
		return "", fmt.Errorf("format %s: the chat template must be a file under %s, named relative to the cases file", format, dir)
	}
	return "hf:" + filepath.Join(dir, filepath.FromSlash(rel)), nil
}

// runCase renders case c of tpl. Errors are results too; their messages
// name the template relative to the cases file's directory, so that a
// recorded error does not depend on the directory rolemark test was given.
func runCase(ctx context.Context, tpl *engine.Template, c engine.Case, dir string) engine.Result {
	var opts []engine.RenderOption
	if c.History != nil {
		opts = append(opts, engine.History(c.History))
	}
	if c.Data != nil {
		opts = append(opts, engine.Data(c.Data))
	}
	fail := func(err error) engine.Result {
		rel := tpl.Name()
		if dir != "." {
			rel = strings.TrimPrefix(rel, dir+"/")
		}
		return engine.Result{Error: renameTemplate(err, tpl.Name(), rel).Error()}
	}
	msgs, err := tpl.Messages(ctx, c.Inputs, opts...)
	if err != nil {
		return fail(err)
	}
	if c.Format == "" {
		if msgs == nil {
			msgs = []chat.Message{}
		}
		return engine.Result{Messages: msgs}
	}
	var b bytes.Buffer
	var tools []chat.Tool
	if fm := tpl.FrontMatter(); fm != nil {
		tools = fm.Tools
	}
	if err := writeMessages(ctx, &b, msgs, c.Format, tools, nil); err != nil {
		return fail(err)
	}
	return engine.Result{Text: b.String()}
}

// renameInDir makes an error that names a file of the directory's file
// system name it as the user can open it, inside dir.
func renameInDir(err error, dir string) error {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Template != "" && !filepath.IsAbs(ee.Template) {
		ee.Template = filepath.Join(dir, filepath.FromSlash(ee.Template))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && !filepath.IsAbs(pe.Path) {
		pe.Path = filepath.Join(dir, filepath.FromSlash(pe.Path))
	}
	return err
}
