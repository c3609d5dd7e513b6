package preview

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// dirFS is a read-only fs.FS of one directory that refuses every path that
// leads outside it, through .. or through a symbolic link. os.DirFS follows
// a link wherever it points; a prompt directory may hold one, and the
// preview promises to read nothing outside DIR.
type dirFS struct {
	root string // absolute, with every symbolic link resolved
}

func newDirFS(dir string) (dirFS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dirFS{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return dirFS{}, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return dirFS{}, err
	}
	if !info.IsDir() {
		return dirFS{}, fmt.Errorf("%s is not a directory", dir)
	}
	return dirFS{root: real}, nil
}

// Open opens name read-only, after resolving every link in it and checking
// that the result is still inside the root.
func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	real, err := filepath.EvalSymlinks(filepath.Join(d.root, filepath.FromSlash(name)))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if real != d.root && !strings.HasPrefix(real, d.root+string(filepath.Separator)) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return os.Open(real)
}
