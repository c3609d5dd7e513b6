// Package doccheck holds a test of the module's doc comments.
package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sentence matches a comment line that starts a sentence about an
// identifier: "name returns …", "name is …".
var sentence = regexp.MustCompile(`^(\w+) (is|are|returns|reports|converts|replaces|holds|says|walks|records|checks|writes|reads|makes|turns)\b`)

// TestDocComments checks every doc comment of a top-level declaration in
// the module's packages (issue 11, defect 10: a doc comment left above the
// wrong function, two doc comments stacked on one type): a comment that
// starts by naming a declaration of its package names the one it
// documents, and it does not start two sentences with that name.
func TestDocComments(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string][]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, files := range dirs {
		fset := token.NewFileSet()
		var parsed []*ast.File
		names := map[string]bool{}
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
			for _, d := range af.Decls {
				for _, n := range declNames(d) {
					names[n] = true
				}
			}
		}
		for _, af := range parsed {
			for _, d := range af.Decls {
				doc, own := declDoc(d)
				if doc == nil || len(own) != 1 {
					continue
				}
				checked++
				lines := strings.Split(doc.Text(), "\n")
				pos := fset.Position(doc.Pos())
				if m := sentence.FindStringSubmatch(lines[0]); m != nil && names[m[1]] && m[1] != own[0] {
					t.Errorf("%s: the doc comment of %s starts with %s", pos, own[0], m[1])
				}
				starts := 0
				for _, l := range lines {
					if m := sentence.FindStringSubmatch(l); m != nil && m[1] == own[0] {
						starts++
					}
				}
				if starts > 1 {
					t.Errorf("%s: the doc comment of %s holds %d comments on it", pos, own[0], starts)
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("checked %d doc comments; the walk missed the module", checked)
	}
}

func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
	case *ast.GenDecl:
		var out []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			}
		}
		return out
	}
	return nil
}

// declDoc returns a declaration's doc comment and the names it declares
// (a method by its own name).
func declDoc(d ast.Decl) (*ast.CommentGroup, []string) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Doc, []string{d.Name.Name}
	case *ast.GenDecl:
		if d.Lparen.IsValid() {
			return nil, nil
		}
		return d.Doc, declNames(d)
	}
	return nil, nil
}
