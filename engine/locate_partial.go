package engine

import (
	"io"
	"io/fs"
	"strings"
	"testing/fstest"
	"unicode/utf8"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// markedFS is the file system of a template's marked compile (sourcePos):
// every file an engine reads from it, a partial, is marked as the
// template is (markSource), its markers numbered on from those already
// in marks, so that a markup error that a partial writes is placed in the
// partial's own file. A file with a byte order mark or front matter is
// read as it is: its offsets would not be the file's.
type markedFS struct {
	fs.FS
	engine string
	marks  *[]mark
	srcs   map[string]string // each marked file's source, by path
	done   map[string][]byte // what Open gave for each file, by path
}

func (m *markedFS) Open(name string) (fs.File, error) {
	f, err := m.FS.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		return f, err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	src := string(data)
	if marked, ok := m.done[name]; ok {
		data = marked // opened before (a Stat, then a read)
	} else if !strings.HasPrefix(src, driver.ByteOrderMark) && textpos.FrontMatterEnd(src) == 0 {
		if marked, ok := m.mark(name, src); ok {
			m.srcs[name] = src
			data = []byte(marked)
		}
		m.done[name] = data
	}
	return fstest.MapFS{name: &fstest.MapFile{Data: data, Mode: st.Mode(), ModTime: st.ModTime()}}.Open(name)
}

// mark returns src marked, its markers after those of m.marks, which it
// extends with them.
func (m *markedFS) mark(name, src string) (string, bool) {
	marked, marks, ok := markSource(m.engine, src)
	base := len(*m.marks)
	if !ok || base+len(marks) > maxMarkers {
		return "", false
	}
	var b strings.Builder
	for len(marked) > 0 {
		r, size := utf8.DecodeRuneInString(marked)
		if isMarker(r) {
			b.WriteRune(r + rune(base))
		} else {
			b.WriteString(marked[:size]) // invalid UTF-8 as it is
		}
		marked = marked[size:]
	}
	for _, k := range marks {
		k.file = name
		*m.marks = append(*m.marks, k)
	}
	return b.String(), true
}
