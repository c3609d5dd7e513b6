package lsp

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/promptcheck"
)

// diagnostic is an LSP Diagnostic.
type diagnostic struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

const severityError = 1

// analysis is what checking a document found.
type analysis struct {
	dir, name string
	fsys      *overlay
	// tpl is the parsed template, nil when it does not parse.
	tpl      *engine.Template
	problems []error
}

// analyze checks the document as `rolemark check` checks a file of the
// workspace folder.
func (s *Server) analyze(ctx context.Context, d *document) *analysis {
	a := &analysis{}
	a.dir, a.name = s.place(d)
	if a.name == "" {
		return a
	}
	a.fsys = s.overlayFS(a.dir)
	a.fsys.files[a.name] = d.text
	ctx, cancel := context.WithTimeout(ctx, s.opt.CheckTimeout)
	defer cancel()
	a.tpl, a.problems = promptcheck.File(ctx, s.opt.Set, a.fsys, a.name, ".")
	return a
}

// diagnostics checks d and returns its problems at their places in it. A
// problem of another file (a partial the document uses) is shown at the
// document's start, naming the file.
func (s *Server) diagnostics(ctx context.Context, d *document) []diagnostic {
	a := s.analyze(ctx, d)
	d.analysis = a
	if a.name == "" {
		return []diagnostic{}
	}
	diags := []diagnostic{}
	for _, err := range a.problems {
		msg := err.Error()
		line, col := 0, 0
		var ee *engine.Error
		if errors.As(err, &ee) {
			if ee.Template == a.name || strings.HasSuffix(ee.Template, "/"+a.name) {
				line, col = ee.Line, ee.Col
				msg = ee.Err.Error()
			}
		}
		diags = append(diags, diagnostic{Range: rangeAt(d.text, line, col), Severity: severityError, Source: "rolemark", Message: msg})
	}
	return diags
}

// rangeAt is the range of the problem at 1-based line and rune column col
// of text (0 for unknown): the word that starts there (with the . or $
// before a text/template name), or one character.
func rangeAt(text string, line, col int) lspRange {
	if line <= 0 {
		return lspRange{}
	}
	l, ok := lineText(text, line-1)
	if !ok {
		return lspRange{}
	}
	start := runeColToUTF16(l, max(col, 1))
	off := byteOffset(l, start)
	end := off
	if end+1 < len(l) && (l[end] == '.' || l[end] == '$') {
		end++ // text/template's .name and $name
	}
	for end < len(l) {
		r, n := utf8.DecodeRuneInString(l[end:])
		if !isWordRune(r) {
			break
		}
		end += n
	}
	if end == off && end < len(l) {
		_, n := utf8.DecodeRuneInString(l[end:])
		end += n
	}
	return lspRange{Start: position{line - 1, start}, End: position{line - 1, utf16Col(l, end)}}
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
