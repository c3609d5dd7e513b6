package lsp

import (
	"io"
	"io/fs"
	"strings"
	"time"
)

// overlay is a file system whose files named in files hold that text (the
// editor's unsaved buffers) and whose other files are base's.
type overlay struct {
	base  fs.FS
	files map[string]string
}

func (o *overlay) Open(name string) (fs.File, error) {
	if text, ok := o.files[name]; ok {
		return &memFile{Reader: strings.NewReader(text), info: memInfo{name: name, size: int64(len(text))}}, nil
	}
	return o.base.Open(name)
}

// Lstat is fs.ReadLinkFS's: the partial resolver refuses symbolic links,
// and asks by it.
func (o *overlay) Lstat(name string) (fs.FileInfo, error) {
	if text, ok := o.files[name]; ok {
		return memInfo{name: name, size: int64(len(text))}, nil
	}
	if l, ok := o.base.(interface {
		Lstat(string) (fs.FileInfo, error)
	}); ok {
		return l.Lstat(name)
	}
	return fs.Stat(o.base, name)
}

type memFile struct {
	*strings.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

var _ io.Reader = (*memFile)(nil)

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string {
	return i.name[strings.LastIndexByte(i.name, '/')+1:]
}
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
