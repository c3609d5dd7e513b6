//go:build ignore

// Command convert turns the test suites of the libraries under rolemark's
// handlebars, gotmpl and pongo2 engines into JSON case files that each
// engine's suites_test.go renders with the raw library and with rolemark:
//
//	go run scripts/suites/convert.go mustache /path/to/mustache-spec handlebars/testdata/suites/mustache.json
//	go run scripts/suites/convert.go raymond $(go env GOMODCACHE)/github.com/aymerick/raymond@v2.0.2+incompatible handlebars/testdata/suites/raymond.json
//	go run scripts/suites/convert.go gotmpl $(go env GOROOT) gotmpl/testdata/suites/exec.json
//	go run scripts/suites/convert.go pongo2 $(go env GOMODCACHE)/github.com/flosch/pongo2/v6@v6.0.0 pongo2/testdata/suites/template_tests.json
//
// Go test tables are read with go/ast; a case's data is kept when it is
// a literal (strings, numbers, booleans, nil, maps with string keys and
// slices of those), and a case whose data, helpers or private data are Go
// code is written with a skip reason instead, so the counts stay visible.
// mustache/spec is read from its specs/*.json; pongo2's template_tests
// from its .tpl and .tpl.out files. Nothing but the cases is copied.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/internal/suites"
)

// Case is one converted case, as the tests read it.
type Case = suites.Case

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: convert mustache|raymond|gotmpl|pongo2 SRC OUT.json")
		os.Exit(2)
	}
	var cases []Case
	var err error
	switch os.Args[1] {
	case "mustache":
		cases, err = mustache(os.Args[2])
	case "raymond":
		cases, err = raymond(os.Args[2])
	case "gotmpl":
		cases, err = gotmpl(os.Args[2])
		if err == nil {
			var more []Case
			more, err = gotmplMore(os.Args[2])
			cases = append(cases, more...)
		}
	case "pongo2":
		cases, err = pongo2(os.Args[2])
	default:
		err = fmt.Errorf("unknown suite %q", os.Args[1])
	}
	if err == nil {
		err = write(os.Args[3], cases)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	skipped := 0
	for _, c := range cases {
		if c.Skip != "" {
			skipped++
		}
	}
	fmt.Printf("%s: %d cases, %d skipped\n", os.Args[3], len(cases), skipped)
}

func write(out string, cases []Case) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(cases, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// mustache reads the spec's core files; raymond, like handlebars.js, has
// no set-delimiter tag and runs mustache lambdas as helpers, so the
// ~optional files are left out and cases that set delimiters are skipped.
func mustache(dir string) ([]Case, error) {
	var cases []Case
	for _, f := range []string{"comments", "delimiters", "interpolation", "inverted", "partials", "sections"} {
		b, err := os.ReadFile(filepath.Join(dir, "specs", f+".json"))
		if err != nil {
			return nil, err
		}
		var spec struct {
			Tests []struct {
				Name     string            `json:"name"`
				Data     any               `json:"data"`
				Template string            `json:"template"`
				Expected string            `json:"expected"`
				Partials map[string]string `json:"partials"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(b, &spec); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		for _, t := range spec.Tests {
			c := Case{File: f + ".yml", Name: t.Name, Template: t.Template, Data: t.Data, Partials: t.Partials, Expected: t.Expected}
			if strings.Contains(t.Template, "{{=") || anyContains(t.Partials, "{{=") {
				c.Skip = "sets delimiters, which Handlebars does not have"
			}
			cases = append(cases, c)
		}
	}
	return cases, nil
}

func anyContains(m map[string]string, s string) bool {
	for _, v := range m {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// raymond reads every []Test table of the handlebars/ folder and of the
// root package's tests: {name, input, data, privData, helpers, partials,
// output}.
func raymond(dir string) ([]Case, error) {
	var files []string
	for _, pat := range []string{"handlebars/*_test.go", "*_test.go"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	var cases []Case
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		err := tables(f, "Test", func(table string, el []ast.Expr) {
			if len(el) != 7 {
				return
			}
			c := Case{File: rel + ":" + table}
			var err error
			if c.Name, err = str(el[0]); err != nil {
				c.Name = "?"
			}
			if c.Template, err = str(el[1]); err != nil {
				c.Skip = "template is Go code: " + err.Error()
			}
			if p, err := eval(el[3]); err != nil {
				c.Skip = "private data is Go code: " + err.Error()
			} else if p != nil {
				c.Private = p.(map[string]any)
			}
			if c.Skip == "" {
				pkg := "raymond"
				if strings.HasPrefix(rel, "handlebars") {
					pkg = "handlebars"
				}
				c.Helpers, c.Skip = helpers(el[4], pkg)
				if c.Skip != "" {
					c.DataExpr = "helpers are Go code"
				}
			}
			// data and partials are kept where they are literals, for
			// a test that writes the case's Go code again
			if c.Data, err = eval(el[2]); err != nil {
				c.DataExpr = "Go code"
				if c.Skip == "" {
					c.Skip = "data is Go code: " + err.Error()
				}
			}
			if !strings.Contains(c.Skip, "private data is Go code") {
				if p, err := eval(el[5]); err != nil {
					c.Skip = "partials are Go code: " + err.Error()
				} else if p != nil {
					c.Partials = map[string]string{}
					for k, v := range p.(map[string]any) {
						c.Partials[k], _ = v.(string)
					}
				}
			}
			c.Expected, _ = eval(el[6])
			cases = append(cases, c)
		})
		if err != nil {
			return nil, err
		}
	}
	return cases, nil
}

// helpers reads a map literal of named helper functions as name ->
// pkg.function; helpers written as function literals are a skip reason.
func helpers(e ast.Expr, pkg string) (map[string]string, string) {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return nil, ""
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, "uses helpers (Go code)"
	}
	m := map[string]string{}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, "uses helpers (Go code)"
		}
		name, err := str(kv.Key)
		fn, ok := kv.Value.(*ast.Ident)
		if err != nil || !ok {
			return nil, "uses helpers written as function literals (Go code)"
		}
		m[name] = pkg + "." + fn.Name
	}
	return m, ""
}

func needNil(e ast.Expr, what string) string {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return ""
	}
	return "uses " + what + " (Go code)"
}

// gotmpl reads execTests of text/template's exec_test.go: {name, input,
// output, data, ok}. Data is kept as its Go source; the test knows tVal
// and the literals.
func gotmpl(goroot string) ([]Case, error) {
	f := filepath.Join(goroot, "src", "text", "template", "exec_test.go")
	src, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var cases []Case
	err = tables(f, "execTest", func(table string, el []ast.Expr) {
		if table != "execTests" || len(el) != 5 {
			return
		}
		c := Case{File: "exec_test.go:execTests"}
		c.Name, _ = str(el[0])
		var err error
		if c.Template, err = str(el[1]); err != nil {
			c.Skip = "template is Go code: " + err.Error()
		}
		c.Expected, _ = str(el[2])
		c.DataExpr = string(src[el[3].Pos()-1 : el[3].End()-1])
		ok := el[4].(*ast.Ident).Name == "true"
		c.OK = &ok
		cases = append(cases, c)
	})
	return cases, err
}

// gotmplMore reads the other execution tables of text/template's tests:
// multiExecTests (multi_test.go), whose templates call the templates
// multiText1 and multiText2 define, here written after each template, and
// cmpTests (exec_test.go), each an {{if EXPR}} as TestComparison runs it
// with its cmpStruct.
func gotmplMore(goroot string) ([]Case, error) {
	dir := filepath.Join(goroot, "src", "text", "template")
	f := filepath.Join(dir, "multi_test.go")
	src, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	defines := ""
	for _, name := range []string{"multiText1", "multiText2"} {
		m := regexp.MustCompile("(?s)const " + name + " = `(.*?)`").FindSubmatch(src)
		if m == nil {
			return nil, fmt.Errorf("%s: no %s", f, name)
		}
		defines += strings.Join(regexp.MustCompile(`\{\{define.*?\{\{end\}\}`).FindAllString(string(m[1]), -1), "")
	}
	var cases []Case
	err = tables(f, "execTest", func(table string, el []ast.Expr) {
		if table != "multiExecTests" || len(el) != 5 {
			return
		}
		c := Case{File: "multi_test.go:multiExecTests"}
		c.Name, _ = str(el[0])
		in, err := str(el[1])
		if err != nil {
			c.Skip = "template is Go code: " + err.Error()
		}
		c.Template = in + defines
		c.Expected, _ = str(el[2])
		c.DataExpr = string(src[el[3].Pos()-1 : el[3].End()-1])
		ok := el[4].(*ast.Ident).Name == "true"
		c.OK = &ok
		cases = append(cases, c)
	})
	if err != nil {
		return nil, err
	}
	err = tables(filepath.Join(dir, "exec_test.go"), "cmpTest", func(table string, el []ast.Expr) {
		if table != "cmpTests" || len(el) != 3 {
			return
		}
		c := Case{File: "exec_test.go:cmpTests", DataExpr: "cmpStruct"}
		expr, err := str(el[0])
		if err != nil {
			c.Skip = "expression is Go code: " + err.Error()
		}
		c.Name = expr
		c.Template = fmt.Sprintf("{{if %s}}true{{else}}false{{end}}", expr)
		c.Expected, _ = str(el[1])
		ok := el[2].(*ast.Ident).Name == "true"
		c.OK = &ok
		cases = append(cases, c)
	})
	return cases, err
}

// pongo2 reads template_tests/*.tpl with their .tpl.out files.
func pongo2(dir string) ([]Case, error) {
	tpls, err := filepath.Glob(filepath.Join(dir, "template_tests", "*.tpl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(tpls)
	var cases []Case
	for _, f := range tpls {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c := Case{File: "template_tests/" + filepath.Base(f), Name: strings.TrimSuffix(filepath.Base(f), ".tpl"), Template: string(src)}
		if out, err := os.ReadFile(f + ".out"); err == nil {
			c.Expected = string(out)
		} else {
			c.Skip = "no .out file"
		}
		if opts, err := os.ReadFile(f + ".options"); err == nil {
			c.DataExpr = "options: " + strings.TrimSpace(string(opts))
			c.Skip = "needs pongo2's " + strings.Join(strings.Fields(string(opts)), ", ") + ", which the engine does not offer"
		}
		cases = append(cases, c)
		if c.Skip != "" || strings.Contains(c.Template, "{% extends") || strings.Contains(c.Template, "{% macro") || strings.Contains(c.Template, "{% set") {
			// one piece: later lines use what earlier ones define
			continue
		}
		// A file is many tests, mostly one a line: each run of lines
		// that closes every block it opens is a case of its own too, so
		// that one tag rolemark refuses does not hide the rest.
		for _, seg := range segments(c.Template) {
			cases = append(cases, Case{File: c.File, Name: fmt.Sprintf("%s:%d", c.Name, seg.line), Template: seg.text})
		}
	}
	// the .err files: a template a line, each failing with the message
	// the same line of .err.out matches
	errs, err := filepath.Glob(filepath.Join(dir, "template_tests", "*.err"))
	if err != nil {
		return nil, err
	}
	sort.Strings(errs)
	for _, f := range errs {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out, err := os.ReadFile(f + ".out")
		if err != nil {
			return nil, err
		}
		want := strings.Split(string(out), "\n")
		for i, l := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
			if l == "" {
				continue
			}
			ok := false
			c := Case{File: "template_tests/" + filepath.Base(f), Name: fmt.Sprintf("%s:%d", filepath.Base(f), i+1), Template: l, OK: &ok}
			if i < len(want) {
				c.Expected = want[i]
			}
			cases = append(cases, c)
		}
	}
	// the files the templates include, import and extend, as the
	// partials of one case that the others share
	files := map[string]string{}
	root := filepath.Join(dir, "template_tests")
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case strings.HasSuffix(rel, ".out"), strings.HasSuffix(rel, ".err"), strings.HasSuffix(rel, ".options"), rel == "CHANGELOG":
			return nil
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	cases = append(cases, Case{File: "template_tests", Name: "(files)", Partials: files, Skip: "the files the cases include, import and extend"})
	return cases, err
}

type segment struct {
	line int
	text string
}

var (
	tagRE     = regexp.MustCompile(`\{%-?\s*(\w+)`)
	blockTags = map[string]bool{"autoescape": true, "block": true, "comment": true, "filter": true, "for": true, "if": true,
		"ifchanged": true, "ifequal": true, "ifnotequal": true, "macro": true, "spaceless": true, "verbatim": true, "with": true}
)

// segments splits a template at the line ends where no block is open,
// leaving out blank runs.
func segments(src string) []segment {
	var out []segment
	depth, start, verbatim := 0, 0, false
	lines := strings.SplitAfter(src, "\n")
	var cur strings.Builder
	for i, l := range lines {
		if cur.Len() == 0 {
			start = i + 1
		}
		cur.WriteString(l)
		for _, m := range tagRE.FindAllStringSubmatch(l, -1) {
			name := m[1]
			switch {
			case verbatim && name == "endverbatim":
				verbatim = false
				depth--
			case verbatim:
			case blockTags[name]:
				depth++
				verbatim = name == "verbatim"
			case strings.HasPrefix(name, "end") && blockTags[name[3:]]:
				depth--
			}
		}
		if depth <= 0 {
			depth = 0
			text := strings.TrimSuffix(cur.String(), "\n")
			if strings.TrimSpace(text) != "" {
				out = append(out, segment{start, text})
			}
			cur.Reset()
		}
	}
	return out
}

// tables calls f with the elements of each composite literal of
// elemType found in a []elemType table of the file, in order.
func tables(file, elemType string, f func(table string, el []ast.Expr)) error {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return err
	}
	table := ""
	ast.Inspect(af, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) > 0 {
			table = vs.Names[0].Name
		}
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		at, ok := cl.Type.(*ast.ArrayType)
		if !ok {
			return true
		}
		if id, ok := at.Elt.(*ast.Ident); !ok || id.Name != elemType {
			return true
		}
		for _, e := range cl.Elts {
			if row, ok := e.(*ast.CompositeLit); ok {
				f(table, row.Elts)
			}
		}
		return false
	})
	return nil
}

var consts = map[string]string{
	// exec_test.go's bigInt and bigUint on a 64-bit int.
	"bigInt":  "0x7fffffffffffffff",
	"bigUint": "0x8000000000000000",
}

func str(e ast.Expr) (string, error) {
	v, err := eval(e)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("not a string")
	}
	return s, nil
}

// eval evaluates a literal Go expression into JSON-able values; integers
// are int64, so JSON keeps them apart from floats.
func eval(e ast.Expr) (any, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			return strconv.Unquote(e.Value)
		case token.INT:
			return strconv.ParseInt(e.Value, 0, 64)
		case token.FLOAT:
			return strconv.ParseFloat(e.Value, 64)
		}
	case *ast.Ident:
		switch e.Name {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "nil":
			return nil, nil
		}
		if v, ok := consts[e.Name]; ok {
			return v, nil
		}
	case *ast.ParenExpr:
		return eval(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			v, err := eval(e.X)
			switch v := v.(type) {
			case int64:
				return -v, err
			case float64:
				return -v, err
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, err := eval(e.X)
			if err != nil {
				return nil, err
			}
			b, err := eval(e.Y)
			if err != nil {
				return nil, err
			}
			as, ok1 := a.(string)
			bs, ok2 := b.(string)
			if ok1 && ok2 {
				return as + bs, nil
			}
		}
	case *ast.CompositeLit:
		isMap := false
		switch t := e.Type.(type) {
		case *ast.MapType:
			if id, ok := t.Key.(*ast.Ident); !ok || id.Name != "string" {
				return nil, fmt.Errorf("map key %s", exprString(t.Key))
			}
			isMap = true
		case *ast.ArrayType:
		case nil:
			isMap = len(e.Elts) > 0 && isKV(e.Elts[0])
		default:
			return nil, fmt.Errorf("composite of %s", exprString(t))
		}
		if isMap {
			m := map[string]any{}
			for _, el := range e.Elts {
				kv := el.(*ast.KeyValueExpr)
				k, err := str(kv.Key)
				if err != nil {
					return nil, err
				}
				v, err := eval(kv.Value)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			return m, nil
		}
		s := []any{}
		for _, el := range e.Elts {
			v, err := eval(el)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s", exprString(e))
}

func isKV(e ast.Expr) bool { _, ok := e.(*ast.KeyValueExpr); return ok }

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.FuncLit:
		return "func literal"
	case *ast.CallExpr:
		return exprString(e.Fun) + "(…)"
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.UnaryExpr:
		return e.Op.String() + exprString(e.X)
	case *ast.CompositeLit:
		return exprString(e.Type) + "{…}"
	case *ast.StructType:
		return "struct"
	case *ast.InterfaceType:
		return "interface{}"
	}
	return fmt.Sprintf("%T", e)
}
