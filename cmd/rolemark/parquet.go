package main

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/rolemark/rolemark/batch"
)

// parquetRows reads rows from a Parquet file, one row group page at a time:
// each row becomes the variables of its columns by name (strings, numbers,
// booleans, null, and lists and groups as lists and maps). Parquet is read
// from its end, so standard input is first copied to a temporary file.
func parquetRows(r io.Reader, name string) (iter.Seq[batch.Row], error) {
	var ra io.ReaderAt
	var size int64
	cleanup := func() {}
	if f, ok := r.(*countingReader); ok {
		r = f.r
	}
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			ra, size = f, st.Size()
		}
	}
	if ra == nil {
		tmp, err := os.CreateTemp("", "rolemark-*.parquet")
		if err != nil {
			return nil, err
		}
		cleanup = func() { tmp.Close(); os.Remove(tmp.Name()) }
		if size, err = io.Copy(tmp, r); err != nil {
			cleanup()
			return nil, err
		}
		ra = tmp
	}
	pf, err := openParquet(ra, size)
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("%s: not a Parquet file: %w", name, err)
	}
	return func(yield func(batch.Row) bool) {
		defer cleanup()
		rd := parquet.NewReader(pf)
		defer rd.Close()
		for {
			m := map[string]any{}
			err := readParquet(rd, &m)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(batch.Row{Err: err})
				return
			}
			for k, v := range m {
				if b, ok := v.([]byte); ok {
					m[k] = string(b)
				}
			}
			if !yield(batch.Row{Vars: m}) {
				return
			}
		}
	}, nil
}

// openParquet is parquet.OpenFile, with its panic on a corrupt file (a
// page index past the data, say) an error.
func openParquet(ra io.ReaderAt, size int64) (pf *parquet.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			pf, err = nil, fmt.Errorf("corrupt: %v", r)
		}
	}()
	return parquet.OpenFile(ra, size)
}

// readParquet is rd.Read, with its panic on a corrupt page (a length
// past the data, say) an error.
func readParquet(rd interface{ Read(any) error }, m *map[string]any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("corrupt Parquet data: %v", r)
		}
	}()
	return rd.Read(m)
}
