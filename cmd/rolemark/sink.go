package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/batch/batchapi"
)

// sink writes a run's output lines: to --out, or with --split to numbered
// files beside it that each stay within the batch API's limits, with a
// manifest of which rows went where. For the request formats it checks
// each file as the API will (batchapi.File); under --dry-run it writes
// nothing and counts what it would write.
type sink struct {
	out    string // --out, "-" for standard output
	stdout io.Writer
	split  bool
	dry    bool
	// noLimits writes one file past the API's limits (its ids are still
	// checked).
	noLimits bool
	append   bool
	// check follows the current file of a request format; nil for others.
	check *batchapi.File
	api   batchapi.API

	f     *os.File
	w     *bufio.Writer
	files []manifestFile
}

// manifestFile is one file of a --split run, as the manifest lists it.
type manifestFile struct {
	File     string `json:"file"`
	Requests int    `json:"requests"`
	Bytes    int64  `json:"bytes"`
	// FirstRow and LastRow are the input rows (from 1) of its first and
	// last request; the rows between that failed are in no file.
	FirstRow int `json:"first_row"`
	LastRow  int `json:"last_row"`
}

// manifest is what --split writes beside the files.
type manifest struct {
	Format      string         `json:"format"`
	MaxRequests int            `json:"max_requests"`
	MaxBytes    int64          `json:"max_bytes"`
	Files       []manifestFile `json:"files"`
}

// errNeedSplit is the error of a run past its API's limits without --split.
type errNeedSplit struct {
	api    batchapi.API
	limits batchapi.Limits
	row    int
}

func (e errNeedSplit) Error() string {
	return fmt.Sprintf("row %d: one %s file holds at most %d requests and %d bytes; --split writes numbered files within them",
		e.row, e.api.Name, e.limits.Requests, e.limits.Bytes)
}

// splitName is the name of the n-th file (from 1) of a --split run whose
// --out is out: requests.jsonl gives requests-001.jsonl.
func splitName(out string, n int) string {
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-%03d%s", strings.TrimSuffix(out, ext), n, ext)
}

// manifestName is the manifest's name beside out: requests.manifest.json.
func manifestName(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".manifest.json"
}

// open opens the output when it is one file (or standard output).
func (s *sink) open() error {
	if s.dry || s.split {
		return nil
	}
	var w io.Writer = s.stdout
	if s.out != "-" {
		f, err := createOutput(s.out, s.append)
		if err != nil {
			return err
		}
		s.f, w = f, f
	}
	s.w = bufio.NewWriterSize(w, 256<<10)
	s.files = []manifestFile{{File: s.out}}
	return nil
}

// write writes the line of row (from 1). A line the API would refuse in
// the file (a repeated custom_id) is the row's failure, rowErr; err ends
// the run.
func (s *sink) write(row int, line []byte) (rowErr, err error) {
	if s.split && len(s.files) == 0 {
		if err := s.next(); err != nil {
			return nil, err
		}
	}
	if s.check != nil {
		err := s.check.Add(row, line)
		if errors.Is(err, batchapi.ErrFileFull) {
			switch {
			case s.noLimits:
				// One file past the limits: start counting afresh (ids
				// repeated across the two counts go unnoticed).
				s.check.Reset()
				err = s.check.Add(row, line)
			case !s.split:
				return nil, errNeedSplit{s.api, s.check.Limits(), row}
			default:
				if err := s.next(); err != nil {
					return nil, err
				}
				err = s.check.Add(row, line)
			}
		}
		if err != nil {
			return err, nil
		}
	}
	if len(s.files) == 0 {
		s.files = []manifestFile{{File: s.out}}
	}
	cur := &s.files[len(s.files)-1]
	if cur.Requests == 0 {
		cur.FirstRow = row
	}
	cur.Requests++
	cur.Bytes += int64(len(line))
	cur.LastRow = row
	if s.w != nil {
		if _, err := s.w.Write(line); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// next closes the current file of a --split run and starts the next.
func (s *sink) next() error {
	if err := s.closeFile(); err != nil {
		return err
	}
	if s.check != nil {
		s.check.Reset()
	}
	name := splitName(s.out, len(s.files)+1)
	s.files = append(s.files, manifestFile{File: name})
	if s.dry {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	s.f, s.w = f, bufio.NewWriterSize(f, 256<<10)
	return nil
}

// closeFile flushes and closes the current file, if any.
func (s *sink) closeFile() error {
	if s.w == nil {
		return nil
	}
	err := s.w.Flush()
	if s.f != nil {
		if cerr := s.f.Close(); err == nil {
			err = cerr
		}
	}
	s.f, s.w = nil, nil
	return err
}

// finish flushes and closes the output and, for --split, writes the
// manifest (also after an interruption, for the files written so far).
func (s *sink) finish(format string) error {
	err := s.closeFile()
	if !s.split || s.dry {
		return err
	}
	m := manifest{Format: format, Files: s.files}
	if m.Files == nil {
		m.Files = []manifestFile{}
	}
	if s.check != nil {
		l := s.check.Limits()
		m.MaxRequests, m.MaxBytes = l.Requests, l.Bytes
	}
	b, merr := json.MarshalIndent(m, "", "  ")
	if merr == nil {
		merr = os.WriteFile(manifestName(s.out), append(b, '\n'), 0o666)
	}
	if err == nil {
		err = merr
	}
	return err
}

// summary says what the run wrote, or under --dry-run would write.
func (s *sink) summary(rows, failed int) string {
	verb, where := "wrote", ""
	if s.dry {
		verb = "would write"
	}
	written := 0
	for _, f := range s.files {
		written += f.Requests
	}
	switch {
	case s.split:
		where = fmt.Sprintf("%d files (%s)", len(s.files), strings.Join(fileNames(s.files), ", "))
		if !s.dry {
			where += " and " + manifestName(s.out)
		}
	case s.out == "-":
		where = "standard output"
	default:
		where = s.out
	}
	return fmt.Sprintf("rolemark batch: %d rows: %s %d lines to %s; %d failed", rows, verb, written, where, failed)
}

func fileNames(files []manifestFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.File)
	}
	return out
}
