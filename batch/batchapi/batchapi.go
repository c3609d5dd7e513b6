// Package batchapi knows what the two batch APIs accept in one request
// file, as their documentation publishes it: OpenAI's Batch API and
// Anthropic's Message Batches API, each with its limits of requests and
// bytes, its rule for custom_ids and its models. A File follows a request
// file as its lines are written and checks it as the API will, so that a
// program writing the lines (package batch's OpenAIBatch and
// AnthropicBatch, rolemark batch --split) can start a new file where one
// is full and refuse a line the API would refuse.
//
//	api, _ := batchapi.ByName("anthropic-batch")
//	f, err := batchapi.NewFile(api, batchapi.Limits{}, batchapi.UniqueIDs())
//	…
//	switch err := f.Add(row, line); {
//	case errors.Is(err, batchapi.ErrFileFull):
//		// close this file, f.Reset(), add the line to the next
//	case err != nil:
//		// the API would refuse the line
//	}
package batchapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// API is what a batch API accepts in one request file, as its documentation
// publishes it: how many requests and bytes, which custom_ids and which
// models. ByName gives the two this package knows.
type API struct {
	// Name is the output's name: "openai-batch" or "anthropic-batch".
	Name string
	// MaxRequests is the most requests one file (one batch) may hold.
	MaxRequests int
	// MaxBytes is the most bytes one file may hold, counted as the API
	// counts them (see File.Len).
	MaxBytes int64
	// overhead is what a file adds to the bytes of its lines.
	overhead int64
	// idRule says which custom_ids the API takes, for error messages.
	idRule string
	// validID reports whether the API takes id as a custom_id (uniqueness
	// apart).
	validID func(id string) bool
	// model returns an error for a model the API does not serve.
	model func(model string) error
}

// openAIBatchAPI is OpenAI's Batch API: a .jsonl file of at most 50,000
// requests and 200 MB, each with a custom_id unique in the file. OpenAI
// publishes no alphabet or length for custom_ids; an empty one is refused
// here. Servers that read the same file (vLLM, Together, Groq …) serve
// models of every name, so only Anthropic's (claude-…) are refused.
var openAIBatchAPI = API{
	Name:        "openai-batch",
	MaxRequests: 50_000,
	MaxBytes:    200_000_000,
	idRule:      "a custom_id must not be empty",
	validID:     func(id string) bool { return id != "" },
	model: func(m string) error {
		if strings.HasPrefix(m, "claude-") {
			return fmt.Errorf("model %q is Anthropic's: write it with --format anthropic-batch", m)
		}
		return nil
	},
}

// anthropicBatchAPI is Anthropic's Message Batches API: at most 100,000
// requests and 256 MB in one batch, each custom_id 1 to 64 characters of
// letters, digits, _ and -, unique in the batch; the models are Claude's.
// The lines are the items of the request's "requests" array, so a batch's
// size is theirs with a comma between each and the object around them.
var anthropicBatchAPI = API{
	Name:        "anthropic-batch",
	MaxRequests: 100_000,
	MaxBytes:    256_000_000,
	overhead:    int64(len(`{"requests":[]}`)),
	idRule:      "Anthropic takes 1 to 64 characters of letters, digits, _ and -",
	validID:     anthropicID,
	model: func(m string) error {
		if !strings.HasPrefix(m, "claude-") {
			return fmt.Errorf("model %q is not one of Anthropic's (claude-…): pass --model or write one in the front matter", m)
		}
		return nil
	},
}

// ByName returns the API that reads the files of the request output
// named name, as package batch and the command line name them: OpenAI's
// Batch API for "openai-batch" (a .jsonl file of at most 50,000 requests
// and 200 MB, each custom_id unique and not empty,
// any model but Anthropic's), Anthropic's Message Batches API for
// "anthropic-batch" (100,000 requests and 256 MB, each custom_id unique
// and 1 to 64 characters of letters, digits, _ and -, Claude's models).
// ok is false for another name.
func ByName(name string) (api API, ok bool) {
	switch name {
	case "openai-batch":
		return openAIBatchAPI, true
	case "anthropic-batch":
		return anthropicBatchAPI, true
	}
	return API{}, false
}

func anthropicID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckID returns an error for a custom_id the API refuses, uniqueness
// apart (File checks that).
func (a API) CheckID(id string) error {
	if a.validID == nil || a.validID(id) {
		return nil
	}
	return fmt.Errorf("custom_id %q: %s (the RewriteIDs option, --rewrite-ids, makes one)", id, a.idRule)
}

// CheckModel returns an error for a model the API does not serve.
func (a API) CheckModel(model string) error {
	if a.model == nil {
		return nil
	}
	if err := a.model(model); err != nil {
		return fmt.Errorf("%s: %w", a.Name, err)
	}
	return nil
}

// RewriteID returns id when the API takes it, and otherwise an id it takes
// that stands for id alone: the characters the API refuses become _, the
// result is cut to 47 bytes, and - and the first 16 hex digits of id's
// SHA-256 are appended ("a b.c/1" becomes "a_b_c_1-" followed by 16 hex digits). The rewrite is
// documented so that results can be matched to rows by computing it again.
func (a API) RewriteID(id string) string {
	if a.validID == nil || a.validID(id) {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id) && b.Len() < 47; i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else if c < 0x80 || c >= 0xC0 { // one _ per character
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(id))
	b.WriteByte('-')
	b.WriteString(hex.EncodeToString(sum[:8]))
	return b.String()
}

// ErrFileFull is File.Add's error for a line that would take the
// file past its API's request or byte limit.
var ErrFileFull = errors.New("the file is full")

// DuplicateIDError is a custom_id that an earlier row of the same file has.
type DuplicateIDError struct {
	ID string
	// Row is the earlier row's number, from 1.
	Row int
}

func (e *DuplicateIDError) Error() string {
	return fmt.Sprintf("custom_id %q is row %d's too; a batch's custom_ids must be unique", e.ID, e.Row)
}

// File follows one request file as its lines are written, in order,
// and checks it as the API will: each custom_id unique, the requests and
// bytes within the limits. The zero value is not ready; use NewFile.
type File struct {
	api      API
	limits   Limits
	checkIDs bool
	ids      map[string]int
	n        int
	size     int64
}

// Limits bound one request file; a zero field means the API's own limit.
// A smaller limit than the API's is allowed (for smaller files), a larger
// one is not.
type Limits struct {
	Requests int
	Bytes    int64
}

// FileOption configures NewFile.
type FileOption func(*fileSettings)

type fileSettings struct{ checkIDs bool }

// UniqueIDs makes the File keep every custom_id and refuse one that
// repeats (a *DuplicateIDError): for custom_ids taken from the rows
// (package batch's IDKey). Without it the ids are not kept, as the row-N
// ids of a run cannot repeat.
func UniqueIDs() FileOption {
	return func(s *fileSettings) { s.checkIDs = true }
}

// NewFile returns a File for api within l (a zero field is
// the API's own limit).
func NewFile(api API, l Limits, opts ...FileOption) (*File, error) {
	var o fileSettings
	for _, opt := range opts {
		opt(&o)
	}
	if l.Requests == 0 {
		l.Requests = api.MaxRequests
	}
	if l.Bytes == 0 {
		l.Bytes = api.MaxBytes
	}
	if l.Requests < 1 || l.Requests > api.MaxRequests || l.Bytes < 1 || l.Bytes > api.MaxBytes {
		return nil, fmt.Errorf("%s: a file holds 1 to %d requests and 1 to %d bytes", api.Name, api.MaxRequests, api.MaxBytes)
	}
	f := &File{api: api, limits: l, checkIDs: o.checkIDs}
	f.Reset()
	return f, nil
}

// Limits returns the file's limits.
func (f *File) Limits() Limits { return f.limits }

// Reset starts a new, empty file.
func (f *File) Reset() {
	f.n, f.size = 0, f.api.overhead
	if f.checkIDs {
		f.ids = make(map[string]int)
	}
}

// Len returns the requests and bytes of the file so far.
func (f *File) Len() (int, int64) { return f.n, f.size }

// Add counts line, the request of row (from 1), into the file. It returns
// ErrFileFull, and counts nothing, when the line would take the file past
// a limit; a *DuplicateIDError when its custom_id is an earlier row's; an
// error when one line alone is past the byte limit or has no custom_id.
func (f *File) Add(row int, line []byte) error {
	size := int64(len(line)) // its newline stands for Anthropic's comma
	if f.api.overhead+size > f.limits.Bytes {
		return fmt.Errorf("the request is %d bytes; one %s file holds at most %d", len(line), f.api.Name, f.limits.Bytes)
	}
	if f.n+1 > f.limits.Requests || f.size+size > f.limits.Bytes {
		return ErrFileFull
	}
	if f.checkIDs {
		id, err := CustomID(line)
		if err != nil {
			return err
		}
		if first, ok := f.ids[id]; ok {
			return &DuplicateIDError{ID: id, Row: first}
		}
		f.ids[strings.Clone(id)] = row
	}
	f.n++
	f.size += size
	return nil
}

// CustomID returns the custom_id of a request line as package batch's
// OpenAIBatch and AnthropicBatch write it: a JSON object whose first key
// is custom_id.
func CustomID(line []byte) (string, error) {
	const key = `{"custom_id":`
	rest, ok := bytes.CutPrefix(line, []byte(key))
	if !ok || len(rest) == 0 || rest[0] != '"' {
		return "", errors.New("the line does not start with a custom_id")
	}
	end := 1
	for end < len(rest) && rest[end] != '"' {
		if rest[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(rest) {
		return "", errors.New("the line's custom_id does not end")
	}
	var id string
	if err := json.Unmarshal(rest[:end+1], &id); err != nil {
		return "", err
	}
	return id, nil
}
