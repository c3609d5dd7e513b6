package batch

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strings"

	"github.com/rolemark/rolemark/internal/jsondata"
	"github.com/rolemark/rolemark/internal/textpos"
)

// JSONLines reads rows from JSON Lines: one JSON object per line, left in
// Row.JSON for the workers to decode (Row.Decode), whose strings share the
// line's memory where they hold no escapes. Blank lines are skipped and are not rows. A
// line that is not a JSON object is a row whose Err, once decoded, says
// why; reading goes on with the next line. A read error of r ends the rows
// with one row carrying it.
func JSONLines(r io.Reader) iter.Seq[Row] {
	return func(yield func(Row) bool) {
		// r is read straight into blocks that the rows then share: a line
		// is never copied, except the part of one that a block ends in,
		// which starts the next block. buf[start:] is what is read and not
		// yet handed out; bytes once handed out are never written again.
		var buf []byte
		// seen is where the search for the next newline goes on: the bytes
		// of buf[start:seen] hold none.
		start, seen, empty := 0, 0, 0
		lines := 0 // the lines handed out or skipped
		bomChecked := false
		for {
			if !yieldLines(yield, buf, &start, &seen, &lines) {
				return
			}
			if cap(buf)-len(buf) < readBlock/8 || cap(buf) > readBlock && len(buf)-start < readBlock/2 {
				// Too little room left to read into, or a block grown for a
				// long line that is now handed out (the short lines after
				// it would each hold it in memory): a new block, which
				// starts with the unfinished line and holds at least twice
				// it, so that a long line is copied a bounded number of
				// times.
				rest := buf[start:]
				next := make([]byte, len(rest), max(readBlock, 2*len(rest)))
				copy(next, rest)
				buf, start, seen = next, 0, seen-start
			}
			room := buf[len(buf):cap(buf)]
			n, err := r.Read(room)
			if n < 0 || n > len(room) {
				n, err = 0, errBadReadCount
			}
			buf = buf[:len(buf)+n]
			if !bomChecked && (len(buf) >= len(bom) || err != nil) {
				// A UTF-8 byte order mark (as Windows tools write) before
				// the first line is no part of it. No line is handed out
				// before this: a complete line shorter than the mark cannot
				// start with it.
				bomChecked = true
				if bytes.HasPrefix(buf, bom) {
					start, seen = len(bom), max(seen, len(bom))
				}
			}
			if n > 0 {
				empty = 0
			} else if empty++; empty == 100 && err == nil {
				err = io.ErrNoProgress // as bufio gives up on such a reader
			}
			if err == nil {
				continue
			}
			// The end, or a read error: the complete lines, then what is
			// left as the last line, then the error.
			if !yieldLines(yield, buf, &start, &seen, &lines) {
				return
			}
			if line := buf[start:len(buf):len(buf)]; len(bytes.TrimSpace(line)) > 0 {
				if !yield(Row{JSON: line, ownJSON: true, line: lines + 1}) {
					return
				}
			}
			if err != io.EOF {
				yield(Row{Err: err})
			}
			return
		}
	}
}

// yieldLines yields the rows of the complete lines of buf[*start:], those
// that are not blank, moving *start past them, and *seen to the end of buf
// (the search for a newline starts at *seen: a long line read in small
// pieces is searched once, not once per piece), counting them in *lines;
// it reports false when yield does.
func yieldLines(yield func(Row) bool, buf []byte, start, seen, lines *int) bool {
	for {
		from := max(*start, *seen)
		i := bytes.IndexByte(buf[from:], '\n')
		if i < 0 {
			*seen = len(buf)
			return true
		}
		end := from + i + 1
		line := buf[*start:end:end]
		*start, *seen = end, end
		*lines++
		if len(bytes.TrimSpace(line)) > 0 && !yield(Row{JSON: line, ownJSON: true, line: *lines}) {
			return false
		}
	}
}

// bom is the UTF-8 byte order mark, which JSONLines, JSONArray and CSV
// skip at the start of their input.
var bom = []byte("\xef\xbb\xbf")

// errBadReadCount is the error of a reader that says it read less than
// nothing or more than it was given room for.
var errBadReadCount = errors.New("the reader returned an impossible count from Read")

// readBlock is the size of the blocks JSONLines reads into.
const readBlock = 64 << 10

// arena hands out memory in blocks, one allocation for many rows: the text
// Decode writes. Memory once handed out is never handed out again, so that
// the strings in it stay immutable; a block is freed when the last row,
// value or string that shares it is.
type arena struct {
	block []byte
	// inBlock says that the last room was in block.
	inBlock bool
}

// arenaBlock is the size of an arena's blocks; more than a quarter of it
// has an allocation of its own.
const arenaBlock = 32 << 10

// room returns an empty slice of capacity at least n, for take to hand out
// its start. A nil arena allocates.
func (a *arena) room(n int) []byte {
	if a == nil || n > arenaBlock/4 {
		if a != nil {
			a.inBlock = false
		}
		return make([]byte, 0, n)
	}
	if cap(a.block)-len(a.block) < n {
		a.block = make([]byte, 0, arenaBlock)
	}
	a.inBlock = true
	return a.block[len(a.block):len(a.block)]
}

// take hands out the first n bytes of the last room, which are then never
// handed out again.
func (a *arena) take(n int) {
	if a != nil && a.inBlock {
		a.block = a.block[:len(a.block)+n]
		a.inBlock = false
	}
}

// Decode returns the row with its JSON decoded into Vars, when Vars is nil
// and JSON is set; JSON that is not an object sets Err. Other rows come back
// as they are. The values are those json.Unmarshal gives a map[string]any,
// except that a number written as an integer that fits an int is an int
// (as YAML front matter and case files give it; other numbers are
// float64), so that 1000000 prints as written in every engine rather than
// as 1e+06; a row of strings, numbers, booleans and nulls is read without
// encoding/json, to the same values.
func (r Row) Decode() Row { return r.decode(nil) }

// decode is Decode, with the text it writes in a.
func (r Row) decode(a *arena) Row {
	if r.Vars != nil || r.JSON == nil || r.Err != nil {
		return r
	}
	if vars, ok := decodeFlat(r.JSON, r.ownJSON, a); ok {
		r.Vars, r.JSON = vars, nil
		return r
	}
	var vars map[string]any
	if err := jsondata.Unmarshal(r.JSON, &vars); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Type.Kind() == reflect.Map:
			r.Err = fmt.Errorf("a row must be a JSON object, not %s", te.Value)
		case te != nil && strings.HasPrefix(te.Value, "number"):
			// The only value of an object that does not fit an any.
			r.Err = fmt.Errorf("%s is out of the range of a float64", te.Value)
		default:
			r.Err = rowJSONError(err, r.JSON, r.line)
		}
		return r
	}
	if vars == nil {
		r.Err = errors.New("a row must be a JSON object, not null")
		return r
	}
	r.Vars, r.JSON = vars, nil
	return r
}

// JSONError is a row whose JSON is malformed (an encoding/json
// *json.SyntaxError, which Err is), at Line and Col of the input: 1-based,
// Col counting runes from the start of the line, as every rolemark error
// does. JSONLines and JSONArray give it.
type JSONError struct {
	Line, Col int
	Err       error
	where     string // " at the end of the array", " after the array"
}

func (e *JSONError) Error() string { return "invalid JSON" + e.where + ": " + e.Err.Error() }

// Unwrap returns encoding/json's error.
func (e *JSONError) Unwrap() error { return e.Err }

// rowJSONError returns err, encoding/json's error for text, which begins
// at line of the input (0: unknown), as a *JSONError at its place when it
// is a syntax error.
func rowJSONError(err error, text []byte, line int) error {
	var se *json.SyntaxError
	if line == 0 || !errors.As(err, &se) {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	at := se.Offset - 1 // Offset: after the byte that failed
	if se.Offset >= int64(len(text)) {
		at = se.Offset // the end
	}
	return jsonError(err, text, line, at)
}

// jsonError returns err, an error of encoding/json for text, which begins
// at line of the input, as a *JSONError at byte at of text, or just after
// the last byte of text that is not white space when at is past it (the
// input ended).
func jsonError(err error, text []byte, line int, at int64) *JSONError {
	end := int64(len(bytes.TrimRight(text, " \t\r\n")))
	for at < end && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n') {
		at++ // the decoder's token errors stand before the white space
	}
	l, c := textpos.LineCol(string(text), int(min(at, end)))
	return &JSONError{Line: line + l - 1, Col: c, Err: err}
}

// JSONArray reads rows from one JSON array of objects, one element at a
// time, so the array need not fit in memory; each element is left in
// Row.JSON for the workers to decode (Row.Decode), whose strings share the
// element's memory where they hold no escapes. An element that is not
// an object is a row whose Err, once decoded, says why. Malformed JSON ends the rows with one
// row carrying the syntax error, since nothing after it can be trusted.
func JSONArray(r io.Reader) iter.Seq[Row] {
	return func(yield func(Row) bool) {
		br := bufio.NewReaderSize(r, 64<<10)
		if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
			_, _ = br.Discard(len(bom))
		}
		lr := &lineReader{r: br, lines: 1}
		dec := json.NewDecoder(lr)
		invalid := func(err error) error { return lr.jsonError(err) }
		tok, err := dec.Token()
		if err == io.EOF {
			yield(Row{Err: errors.New("empty input: expected a JSON array of objects")})
			return
		}
		if err != nil {
			yield(Row{Err: invalid(err)})
			return
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			yield(Row{Err: fmt.Errorf("expected a JSON array of objects, found %v", tok)})
			return
		}
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				yield(Row{Err: invalid(err)})
				return
			}
			lr.forget(dec.InputOffset())
			if !yield(Row{JSON: raw, ownJSON: true}) {
				return
			}
		}
		if _, err := dec.Token(); err != nil {
			if je, ok := invalid(err).(*JSONError); ok {
				je.where = " at the end of the array"
				yield(Row{Err: je})
				return
			}
			yield(Row{Err: fmt.Errorf("invalid JSON at the end of the array: %w", err)})
			return
		}
		// Only white space may follow the array: anything else is a file
		// that is not what it seems (two arrays, a truncated rewrite).
		end := dec.InputOffset()
		if tok, err := dec.Token(); err != io.EOF {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				// its Offset is the array's end: the error is at the
				// first byte after it that is not white space
				se.Offset = max(se.Offset, end)
			}
			if je, ok := invalid(err).(*JSONError); ok {
				je.where = " after the array"
				yield(Row{Err: je})
				return
			}
			if err == nil {
				err = fmt.Errorf("found %v", tok)
			}
			yield(Row{Err: fmt.Errorf("invalid JSON after the array: %w", err)})
		}
	}
}

// lineReader reads r and keeps what it read from the start of the line
// that holds the last offset forget was given, so that jsonError can place
// an error of encoding/json's decoder of it, whose offsets count from the
// start of the input.
type lineReader struct {
	r     io.Reader
	kept  []byte // the input from offset base
	base  int64
	lines int // the line kept begins on
}

func (lr *lineReader) Read(p []byte) (int, error) {
	n, err := lr.r.Read(p)
	if n > 0 && n <= len(p) {
		lr.kept = append(lr.kept, p[:n]...)
	}
	return n, err
}

// forget drops what comes before the line that holds off.
func (lr *lineReader) forget(off int64) {
	i := int(off - lr.base)
	if i <= 0 || i > len(lr.kept) {
		return
	}
	// nl: the last byte of the last line break before off (LF, CRLF or
	// a lone CR, as textpos counts them); a CR whose next byte is not
	// read yet may be the first half of a CRLF, and is not taken
	nl := bytes.LastIndexAny(lr.kept[:i], "\r\n")
	for nl >= 0 && lr.kept[nl] == '\r' && (nl+1 == len(lr.kept) || lr.kept[nl+1] == '\n') {
		nl = bytes.LastIndexAny(lr.kept[:nl], "\r\n")
	}
	if nl < 0 || nl+1 < len(lr.kept)/2 {
		return // keep it until half of it goes: each byte is moved a bounded number of times
	}
	n, _ := textpos.LineCol(string(lr.kept[:nl+1]), nl+1)
	lr.lines += n - 1
	lr.kept = append(lr.kept[:0], lr.kept[nl+1:]...)
	lr.base += int64(nl + 1)
}

// jsonError returns err, an error of the decoder, as jsonError does, at
// its place in the input.
func (lr *lineReader) jsonError(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && se.Offset >= lr.base:
		// the decoder's Offset is that of the byte that failed, or of
		// the white space before it
		return jsonError(err, lr.kept, lr.lines, se.Offset-lr.base)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return jsonError(err, lr.kept, lr.lines, int64(len(lr.kept)))
	}
	return fmt.Errorf("invalid JSON: %w", err)
}

// CSVOption configures CSV.
type CSVOption func(*csvSettings)

type csvSettings struct {
	null    string
	hasNull bool
}

// CSVNull makes a cell whose text is s a missing value, as a CSV written
// from a table with nulls spells them ("NULL", "NA", "\N", or "" for every
// empty cell).
func CSVNull(s string) CSVOption {
	return func(c *csvSettings) { c.null, c.hasNull = s, true }
}

// csvError is a row that encoding/csv cannot read: its message is the
// problem's, and errors.As finds the *csv.ParseError, which holds the
// line of the input it is on (a quoted field may span lines).
type csvError struct{ pe *csv.ParseError }

func (e csvError) Error() string { return e.pe.Err.Error() }

func (e csvError) Unwrap() error { return e.pe }

// CSV reads rows from CSV whose first record is the header: the variable
// names. Every value is a string, and an empty cell is the empty string. A
// missing cell is a missing variable, so that the template's input schema
// gives its default, or a required input fails the row: a record with
// fewer fields than the header lacks the last ones, and under CSVNull a
// cell that spells null is missing. A record with more fields than the
// header is a row whose Err says so. A malformed record (a bare quote, say)
// is a row whose Err says why, and reading goes on with the next record.
func CSV(r io.Reader, opts ...CSVOption) iter.Seq[Row] {
	var c csvSettings
	for _, o := range opts {
		o(&c)
	}
	return func(yield func(Row) bool) {
		cr := csv.NewReader(bufio.NewReaderSize(r, 64<<10))
		cr.FieldsPerRecord = -1
		header, err := cr.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			yield(Row{Err: fmt.Errorf("header: %w", err)})
			return
		}
		header = append([]string(nil), header...)
		if len(header) > 0 {
			header[0] = trimBOM(header[0])
		}
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				return
			}
			var row Row
			var pe *csv.ParseError
			switch {
			case errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount):
				row.Err = csvError{pe}
			case err != nil:
				yield(Row{Err: err})
				return
			case len(rec) > len(header):
				row.Err = fmt.Errorf("%d fields, the header has %d", len(rec), len(header))
			default:
				row.Vars = make(map[string]any, len(header))
				for i, v := range rec {
					if c.hasNull && v == c.null {
						continue
					}
					row.Vars[header[i]] = v
				}
			}
			if !yield(row) {
				return
			}
		}
	}
}

func trimBOM(s string) string {
	if len(s) >= 3 && s[:3] == "\xef\xbb\xbf" {
		return s[3:]
	}
	return s
}

// HistoryFrom returns the row with the prior messages held in its variable
// field moved into History: an array of messages in the OpenAI form, or the
// JSON text of one (as a CSV or Parquet column holds it); null or an empty
// string is no history. A value of another shape sets Err.
func (r Row) HistoryFrom(field string) Row {
	r = r.Decode()
	v, ok := r.Vars[field]
	if r.Err != nil || !ok {
		return r
	}
	vars := make(map[string]any, len(r.Vars))
	for k, x := range r.Vars {
		if k != field {
			vars[k] = x
		}
	}
	r.Vars = vars
	var b []byte
	switch v := v.(type) {
	case nil:
		return r
	case string:
		if strings.TrimSpace(v) == "" {
			return r
		}
		if !json.Valid([]byte(v)) {
			r.Err = fmt.Errorf("%s: a string of %d bytes that is not the JSON text of an array of OpenAI messages: %.40q", field, len(v), v)
			return r
		}
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			r.Err = fmt.Errorf("%s: %w", field, err)
			return r
		}
	}
	if err := json.Unmarshal(b, &r.History); err != nil {
		r.Err = fmt.Errorf("%s: not an array of OpenAI messages: %w", field, err)
	}
	return r
}
