package preview

import (
	"hash/fnv"
	"io/fs"
	"strconv"

	"github.com/rolemark/rolemark/internal/caserun"
)

// version returns a short fingerprint of the directory's state: the path,
// size and modification time of every file. The page polls it and reloads
// when it changes.
//
// Polling rather than fsnotify: the core module takes no dependency that
// has not earned its place, fsnotify does not watch a tree recursively (each
// new subdirectory must be added, and editors that save by renaming drop a
// file's watch), and a scan is cheap — BenchmarkVersion measures a
// directory of 500 prompts; see docs/decisions.md.
func version(fsys fs.FS) string {
	h := fnv.New64a()
	_ = walkFiles(fsys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			h.Write([]byte("!" + p + "\x00"))
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, info.Size(), 10))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, info.ModTime().UnixNano(), 10))
		h.Write([]byte{0})
		return nil
	})
	return strconv.FormatUint(h.Sum64(), 36)
}

// walkFiles calls fn, as fs.WalkDir does, for each file of fsys the page
// shows, and for each path it cannot read with the error: it skips the
// directories rolemark test skips (caserun.SkipDir: .git, node_modules).
// The listing, the saved cases and the version all see the same files.
func walkFiles(fsys fs.FS, fn fs.WalkDirFunc) error { return caserun.Walk(fsys, fn) }
