package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/internal/textpos"
)

// current returns the open document uri with an analysis of its text.
func (s *Server) current(ctx context.Context, uri string) *document {
	d := s.docs[uri]
	if d == nil {
		return nil
	}
	if d.analysis == nil {
		d.analysis = s.analyze(ctx, d)
	}
	return d
}

// frontMatter returns the document's front matter: the parsed template's,
// or, when the template does not parse, its front matter's alone.
func (s *Server) frontMatter(d *document) *engine.FrontMatter {
	a := d.analysis
	if a.tpl != nil {
		return a.tpl.FrontMatter()
	}
	n := textpos.FrontMatterEnd(d.text)
	if n == 0 || a.name == "" {
		return nil
	}
	eng := "handlebars"
	if e, err := s.opt.Set.EngineFor(a.name); err == nil {
		eng = e.Name()
	}
	t, err := s.opt.Set.Parse(eng, a.name, d.text[:n])
	if err != nil {
		return nil
	}
	return t.FrontMatter()
}

// engineOf returns the engine the document is written in, nil when none
// claims it.
func (s *Server) engineOf(d *document) driver.Engine {
	a := d.analysis
	name := ""
	if a.tpl != nil {
		name = a.tpl.EngineName()
	} else if fm := s.frontMatter(d); fm != nil && fm.Engine != "" {
		name = fm.Engine
	}
	if e, ok := s.opt.Set.Engine(name); ok {
		return e
	}
	if e, err := s.opt.Set.EngineFor(d.file); err == nil {
		return e
	}
	return nil
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    lspRange      `json:"range"`
}

// bodyLine returns the open document p names and its line under the
// cursor. d is nil when the document is not open; ok is false when the
// cursor is past the end or in the front matter, not in the template.
func (s *Server) bodyLine(ctx context.Context, p positionParams) (d *document, line string, ok bool) {
	d = s.current(ctx, p.TextDocument.URI)
	if d == nil {
		return nil, "", false
	}
	line, ok = lineText(d.text, p.Position.Line)
	if !ok || offsetOf(d.text, p.Position) < textpos.FrontMatterEnd(d.text) {
		return d, "", false
	}
	return d, line, true
}

// hover describes the declared input under the cursor: its type, whether
// it is required, its description and its choices.
func (s *Server) hover(ctx context.Context, p positionParams) any {
	d, line, ok := s.bodyLine(ctx, p)
	if !ok {
		return nil
	}
	fm := s.frontMatter(d)
	if fm == nil || fm.Input == nil {
		return nil
	}
	at := byteOffset(line, p.Position.Character)
	start, end := at, at
	for start > 0 && isPathByte(line[start-1]) {
		start--
	}
	for end < len(line) && isWordByte(line[end]) {
		end++
	}
	segStart := strings.LastIndexByte(line[start:end], '.') + start + 1
	if segStart >= end {
		return nil
	}
	var segs []string
	for i, seg := range strings.Split(line[start:end], ".") {
		if seg == "" || (i == 0 && (seg == "this" || seg == "root")) {
			continue
		}
		segs = append(segs, seg)
	}
	sch, required := fm.Input, true
	for _, seg := range segs {
		if sch.Type == "array" && sch.Items != nil {
			sch = sch.Items
		}
		next := sch.Properties[seg]
		if next == nil {
			return nil
		}
		required = slices.Contains(sch.Required, seg)
		sch = next
	}
	if len(segs) == 0 {
		return nil
	}
	return hoverResult{
		Contents: markupContent{Kind: "markdown", Value: describe(strings.Join(segs, "."), sch, required)},
		Range:    lspRange{Start: position{p.Position.Line, utf16Col(line, segStart)}, End: position{p.Position.Line, utf16Col(line, end)}},
	}
}

// describe is the hover text of an input.
func describe(name string, sch *schema.Schema, required bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`%s`: %s", name, typeName(sch))
	if !required {
		b.WriteString(", optional")
	}
	if sch.Description != "" {
		b.WriteString("\n\n" + sch.Description)
	}
	if len(sch.Enum) > 0 {
		var vals []string
		for _, v := range sch.Enum {
			vals = append(vals, fmt.Sprintf("`%v`", v))
		}
		b.WriteString("\n\nOne of " + strings.Join(vals, ", "))
	}
	return b.String()
}

// typeName is a schema's type as a reader says it: "string", "array of
// string", "any".
func typeName(sch *schema.Schema) string {
	switch {
	case len(sch.Enum) > 0:
		return "enum"
	case sch.Type == "":
		return "any"
	case sch.Type == "array" && sch.Items != nil:
		return "array of " + typeName(sch.Items)
	}
	return sch.Type
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isPathByte(c byte) bool { return isWordByte(c) || c == '.' }

// Completion item kinds (LSP CompletionItemKind).
const (
	kindFunction = 3
	kindVariable = 6
	kindFile     = 17
)

type completionItem struct {
	Label         string         `json:"label"`
	Kind          int            `json:"kind"`
	Detail        string         `json:"detail,omitempty"`
	Documentation *markupContent `json:"documentation,omitempty"`
	SortText      string         `json:"sortText"`
}

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

var (
	// partialContext is text before the cursor where a partial's name is
	// written: {{> name, {% include "name, {{template "name.
	partialContext = regexp.MustCompile(`(\{\{~?#?>\s*["']?|\{%-?\s*(include|import|extends|from)\s+["']|\{\{-?\s*(template|block)\s+")[\w./-]*$`)
	// filterContext is text before the cursor where a filter's name is
	// written: after a pipe inside {{ }} or {% %}.
	filterContext = regexp.MustCompile(`\|\s*\w*$`)
)

// completion lists what can be written at the cursor: a partial's name
// where one is expected, a filter's after a pipe (Jinja, pongo2), and
// otherwise the declared inputs and the engine's helpers or functions.
func (s *Server) completion(ctx context.Context, p positionParams) any {
	d, line, ok := s.bodyLine(ctx, p)
	if d == nil {
		return nil
	}
	if !ok {
		return completionList{Items: []completionItem{}}
	}
	before := line[:byteOffset(line, p.Position.Character)]
	e := s.engineOf(d)
	items := []completionItem{}
	if partialContext.MatchString(before) {
		for _, name := range s.partials(d, e) {
			items = append(items, completionItem{Label: name, Kind: kindFile, Detail: "partial", SortText: "1" + name})
		}
		return completionList{Items: items}
	}
	var funcs []Func
	if e != nil {
		funcs = s.opt.Funcs[e.Name()]
	}
	filters := e != nil && e.Name() != "handlebars" && e.Name() != "gotmpl" && filterContext.MatchString(before)
	if !filters {
		if fm := s.frontMatter(d); fm != nil && fm.Input != nil {
			for _, name := range fm.Input.Order {
				sch := fm.Input.Properties[name]
				it := completionItem{Label: name, Kind: kindVariable, Detail: typeName(sch), SortText: "0" + name}
				if sch.Description != "" {
					it.Documentation = &markupContent{Kind: "markdown", Value: sch.Description}
				}
				items = append(items, it)
			}
		}
	}
	for _, f := range funcs {
		if (f.Kind == "filter") != filters {
			continue
		}
		it := completionItem{Label: f.Name, Kind: kindFunction, Detail: f.Kind, SortText: "2" + f.Name}
		if f.Doc != "" {
			it.Documentation = &markupContent{Kind: "markdown", Value: f.Doc}
		}
		items = append(items, it)
	}
	return completionList{Items: items}
}

// partials lists the names of the partials a template of the document's
// directory can use: files _NAME.EXT with one of the engine's extensions
// in its directory and each parent up to the workspace folder, nearest
// first, by the name a template writes (NAME).
func (s *Server) partials(d *document, e driver.Engine) []string {
	a := d.analysis
	if a.fsys == nil || e == nil {
		return nil
	}
	seen := map[string]bool{}
	var names []string
	dir := path.Dir(a.name)
	for {
		entries, _ := fs.ReadDir(a.fsys, dir)
		for _, ent := range entries {
			n := ent.Name()
			ext := path.Ext(n)
			if ent.IsDir() || !driver.IsPartialFile(n) || !slices.Contains(e.Extensions(), ext) {
				continue
			}
			if name := strings.TrimSuffix(n[1:], ext); !seen[name] && path.Join(dir, n) != a.name {
				seen[name] = true
				names = append(names, name)
			}
		}
		if dir == "." {
			break
		}
		dir = path.Dir(dir)
	}
	slices.Sort(names)
	return names
}

// partialRef finds a partial's name written at or around a byte offset
// of a line.
var partialRef = regexp.MustCompile(`\{\{~?#?>\s*["']?([\w./-]+)|\{%-?\s*(?:include|import|extends|from)\s+["']([^"']+)["']|\{\{-?\s*(?:template|block)\s+"([^"]+)"`)

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// definition is the file of the partial named under the cursor, found as
// the engines find it (driver.Config.ReadPartial).
func (s *Server) definition(ctx context.Context, p positionParams) any {
	d := s.current(ctx, p.TextDocument.URI)
	if d == nil || d.analysis.fsys == nil {
		return nil
	}
	line, ok := lineText(d.text, p.Position.Line)
	if !ok {
		return nil
	}
	at := byteOffset(line, p.Position.Character)
	e := s.engineOf(d)
	if e == nil {
		return nil
	}
	for _, m := range partialRef.FindAllStringSubmatchIndex(line, -1) {
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] < 0 || at < m[g] || at > m[g+1] {
				continue
			}
			a := d.analysis
			cfg := driver.Config{FS: a.fsys, Dir: path.Dir(a.name), Root: "."}
			file, _, err := cfg.ReadPartial(line[m[g]:m[g+1]], driver.PartialExts(a.name, e.Extensions())...)
			if err != nil {
				return nil
			}
			return location{URI: pathToURI(filepath.Join(a.dir, filepath.FromSlash(file)))}
		}
	}
	return nil
}
