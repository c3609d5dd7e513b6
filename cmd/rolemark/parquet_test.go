package main

import (
	"bytes"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"
)

// TestParquetCorrupt: parquet-go panics on some corrupt files (a page
// index or a page length past the data: slice bounds out of range,
// makeslice: len out of range), in OpenFile and in Read, which ended
// rolemark batch with a panic and a stack trace. A corrupt file is an
// error of the input, reported as a row's error or the file's.
func TestParquetCorrupt(t *testing.T) {
	var p bytes.Buffer
	pw := parquet.NewGenericWriter[batchRow](&p)
	_, err := pw.Write([]batchRow{{ID: "a", Q: "one"}, {ID: "b", Q: "two"}})
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	good := p.Bytes()
	for i := 4; i < len(good)-8; i++ {
		for _, b := range []byte{0x00, 0x7f, 0xff, good[i] ^ 0x20} {
			bad := bytes.Clone(good)
			bad[i] = b
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("byte %d set to %#x: panic: %v", i, b, r)
					}
				}()
				rows, err := parquetRows(bytes.NewReader(bad), "f.parquet")
				if err != nil {
					return
				}
				for range rows {
				}
			}()
		}
	}
}
