package driver

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/rolemark/rolemark/internal/textpos"
)

// PartialError is a partial (a Handlebars partial, a Jinja include, import
// or extends, a text/template template) that could not be read. When no
// file of the name exists, Err is fs.ErrNotExist and Tried lists the files
// looked for; otherwise Err says why the name or the file was refused or
// could not be read.
type PartialError struct {
	// Name is the name as the template wrote it.
	Name string
	// Tried lists the files looked for, nearest directory first.
	Tried []string
	// Embedded reports that the file system is an embed.FS: a partial
	// missing from it was most likely left out by a //go:embed pattern
	// without all:, and the error says so.
	Embedded bool
	Err      error
}

// embedHint is what a missing partial's error adds for an embed.FS.
const embedHint = "; //go:embed leaves out files whose names start with _ or . unless the pattern says all:, as in //go:embed all:prompts"

func (e *PartialError) Error() string {
	if errors.Is(e.Err, fs.ErrNotExist) && len(e.Tried) > 0 {
		msg := fmt.Sprintf("partial %q not found: looked for %s", e.Name, strings.Join(e.Tried, ", "))
		if e.Embedded {
			msg += embedHint
		}
		return msg
	}
	return fmt.Sprintf("partial %q: %v", e.Name, e.Err)
}

func (e *PartialError) Unwrap() error { return e.Err }

var (
	errNoFS        = errors.New("the template was not loaded from a file system (use engine.Set.ParseFS or LoadDir)")
	errPartialName = errors.New(`a partial name is a relative slash-separated path without "." or ".." elements`)
)

// IsPartialFile reports whether the file named is a partial rather than a
// template of its own: its base name starts with "_". ReadPartial looks for
// NAME as _NAME first; a directory of prompts lists no partial as a prompt.
func IsPartialFile(name string) bool { return strings.HasPrefix(path.Base(name), "_") }

// PartialExts returns the exts for ReadPartial of a template named root
// in an engine whose extensions are engineExts: root's own extension
// first, when the engine claims it (compared in lower case), then the
// engine's, shortest first (.j2, .jinja, .jinja2), in their given order
// where as long. engineExts is not changed.
func PartialExts(root string, engineExts []string) []string {
	exts := slices.Clone(engineExts)
	slices.SortStableFunc(exts, func(a, b string) int { return len(a) - len(b) })
	own := strings.ToLower(path.Ext(root))
	if i := slices.Index(exts, own); i > 0 {
		exts = append([]string{own}, slices.Delete(exts, i, i+1)...)
	}
	return exts
}

// ReadPartial reads the file of the partial that a template compiled with c
// names, and returns its path in c.FS and its source (without a leading
// ByteOrderMark). Every engine resolves
// every partial, include, import, extends and template name with it, so
// the rules are the same in all of them:
//
//   - name is a slash-separated path below the template's directory; a name
//     with "." or ".." elements, a leading "/" or a "\" is refused, so no
//     file outside c.FS, or above c.Root, can be named.
//   - The directories searched are c.Dir, then each parent of c.Dir up to
//     and including c.Root (c.Dir alone when c.Root is empty or not c.Dir
//     or above it), nearest first; the first file found wins. A name holding slashes
//     ("common/header") is looked for below each of them.
//   - In each directory, a name without an extension is tried with each of
//     exts in turn (the engine's extensions, the template's own first), the
//     partial file _NAME.EXT before NAME.EXT; a name with an extension is
//     tried as _NAME then NAME, and then, unless its extension is one of
//     exts, as a name without one (Dotprompt's partial names may hold
//     dots: "topic-2.sub_topic"). A name that already starts with "_" is
//     tried as written, and then, unless its extension is one of exts,
//     with each of exts ("_header" finds _header.hbs), never with a
//     second "_".
//   - A symbolic link is refused, as is a directory on the way to the file
//     that is one: with os.DirFS, a link could point anywhere on the disk.
//
// When no file exists, the error is a *PartialError whose Err is
// fs.ErrNotExist; any other failure (a refused name or link, an unreadable
// file) is a *PartialError with that cause.
func (c Config) ReadPartial(name string, exts ...string) (file string, src []byte, err error) {
	fail := func(err error) (string, []byte, error) { return "", nil, &PartialError{Name: name, Err: err} }
	if c.FS == nil {
		return fail(errNoFS)
	}
	if !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) {
		return fail(errPartialName)
	}
	sub, base := path.Split(name)
	var bases []string
	switch {
	case strings.HasPrefix(base, "_"):
		// "_header.hbs" as written; "_header" as written, then with the
		// engine's extensions, never as "__header".
		bases = []string{base}
		if !slices.Contains(exts, path.Ext(base)) {
			for _, ext := range exts {
				bases = append(bases, base+ext)
			}
		}
	case path.Ext(base) != "":
		// "header.hbs", or a name with a dot such as Dotprompt's
		// "topic-2.sub_topic": as written first, then as a name without one.
		bases = []string{"_" + base, base}
		if !slices.Contains(exts, path.Ext(base)) {
			for _, ext := range exts {
				bases = append(bases, "_"+base+ext, base+ext)
			}
		}
	default:
		for _, ext := range exts {
			bases = append(bases, "_"+base+ext, base+ext)
		}
	}
	var tried []string
	for _, dir := range partialDirs(c.Dir, c.Root) {
		d := path.Join(dir, sub)
		if err := c.realDirs(dir, sub); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				for _, b := range bases {
					tried = append(tried, path.Join(d, b))
				}
				continue
			}
			return fail(err)
		}
		for _, b := range bases {
			p := path.Join(d, b)
			tried = append(tried, p)
			mode, err := lstat(c.FS, p)
			switch {
			case errors.Is(err, fs.ErrNotExist) || (err == nil && mode.IsDir()):
				continue
			case err != nil:
				return fail(err)
			case mode&fs.ModeSymlink != 0:
				return fail(fmt.Errorf("%s is a symbolic link; a partial must be a regular file in the prompt directory", p))
			case !mode.IsRegular():
				return fail(fmt.Errorf("%s is not a regular file", p))
			}
			b, err := fs.ReadFile(c.FS, p)
			if err != nil {
				return fail(err)
			}
			b = bytes.TrimPrefix(b, []byte(ByteOrderMark))
			if !strings.EqualFold(path.Ext(p), ".prompt") && bytes.IndexByte(b, '\r') >= 0 {
				// CRLF and CR read as LF, as engine.Set reads a template
				// (a Dotprompt partial keeps them, as Dotprompt does).
				b = []byte(textpos.LF(string(b)))
			}
			return p, b, nil
		}
	}
	return "", nil, &PartialError{Name: name, Tried: tried, Err: fs.ErrNotExist, Embedded: isEmbedFS(c.FS)}
}

// realDirs checks that each element of the slash path sub below dir is a
// directory and not a symbolic link.
func (c Config) realDirs(dir, sub string) error {
	for _, elem := range strings.Split(strings.TrimSuffix(sub, "/"), "/") {
		if elem == "" {
			continue
		}
		dir = path.Join(dir, elem)
		mode, err := lstat(c.FS, dir)
		switch {
		case err != nil:
			return err
		case mode&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; a partial must be a regular file in the prompt directory", dir)
		case !mode.IsDir():
			return &fs.PathError{Op: "open", Path: dir, Err: fs.ErrNotExist}
		}
	}
	return nil
}

// lstatFS is fs.ReadLinkFS's Lstat (Go 1.25), which os.DirFS implements
// from Go 1.25 on.
type lstatFS interface {
	Lstat(name string) (fs.FileInfo, error)
}

// lstat returns the mode of the file name in fsys without following a
// symbolic link: with Lstat where fsys has it, else from the directory
// listing, which reports links as links.
func lstat(fsys fs.FS, name string) (fs.FileMode, error) {
	if l, ok := fsys.(lstatFS); ok {
		fi, err := l.Lstat(name)
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	}
	entries, err := fs.ReadDir(fsys, path.Dir(name))
	if err != nil {
		return 0, err
	}
	base := path.Base(name)
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name() >= base })
	if i < len(entries) && entries[i].Name() == base {
		return entries[i].Type(), nil
	}
	return 0, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
}

// isEmbedFS reports whether fsys is an embed.FS (a subtree made with fs.Sub
// cannot be told from any other file system).
func isEmbedFS(fsys fs.FS) bool {
	switch fsys.(type) {
	case embed.FS, *embed.FS:
		return true
	}
	return false
}
