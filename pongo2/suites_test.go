package pongo2_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/suites"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

// The data of pongo2's template_tests (pongo2_template_test.go's
// tplContext), written again here with the same types and values.
type suiteStringer int

func (v suiteStringer) String() string { return "-" + strconv.Itoa(int(v)) + ":" }

type suitePost struct {
	Text    string
	Created time.Time
}

func (p *suitePost) String() string { return ":-)" }

type suiteUser struct {
	Name      string
	Validated bool
}

func (u *suiteUser) Is_admin() *p2.Value { return p2.AsValue(suiteIsAdmin(u)) }
func (u *suiteUser) Is_admin2() bool     { return suiteIsAdmin(u) }

func suiteIsAdmin(u *suiteUser) bool { return u.Name == "user2" }

type suiteComment struct {
	Author *suiteUser
	Date   time.Time
	Text   string
}

var (
	suiteStr   = suiteStringer(1234)
	suiteTime1 = time.Date(2014, 6, 10, 15, 30, 15, 0, time.UTC)
	suiteTime2 = time.Date(2011, 3, 21, 8, 37, 56, 12, time.UTC)
)

func suiteContext() map[string]any {
	comments := func(d1, d2, d3 time.Time, u2 string) []*suiteComment {
		return []*suiteComment{
			{Author: &suiteUser{Name: "user1", Validated: true}, Date: d1, Text: "\"pongo2 is nice!\""},
			{Author: &suiteUser{Name: u2, Validated: true}, Date: d2, Text: "comment2 with <script>unsafe</script> tags in it"},
			{Author: &suiteUser{Name: "user3", Validated: false}, Date: d3, Text: "<b>hello!</b> there"},
		}
	}
	return map[string]any{
		"this_is_a_global_variable": "this is a global text",
		"number":                    11,
		"simple": map[string]any{
			"number":                   42,
			"name":                     "john doe",
			"included_file":            "INCLUDES.helper",
			"included_file_not_exists": "INCLUDES.helper.not_exists",
			"nil":                      nil,
			"uint":                     uint(8),
			"float":                    float64(3.1415),
			"str":                      "string",
			"chinese_hello_world":      "你好世界",
			"bool_true":                true,
			"bool_false":               false,
			"newline_text":             "this is a text\nwith a new line in it",
			"long_text":                "This is a simple text.\n\nThis too, as a paragraph.\nRight?\n\nYep!",
			"escape_js_test":           `escape sequences \r\n\'\" special chars "?!=$<>`,
			"one_item_list":            []int{99},
			"multiple_item_list":       []int{1, 1, 2, 3, 5, 8, 13, 21, 34, 55},
			"unsorted_int_list":        []int{192, 581, 22, 1, 249, 9999, 1828591, 8271},
			"fixed_item_list":          [...]int{1, 2, 3, 4},
			"misc_list":                []any{"Hello", 99, 3.14, "good"},
			"escape_text":              "This is \\a Test. \"Yep\". 'Yep'.",
			"xss":                      "<script>alert(\"uh oh\");</script>",
			"time1":                    suiteTime1,
			"time2":                    suiteTime2,
			"stringer":                 suiteStr,
			"stringerPtr":              &suiteStr,
			"intmap":                   map[int]string{1: "one", 5: "five", 2: "two"},
			"strmap":                   map[string]string{"abc": "def", "bcd": "efg", "zab": "cde", "gh": "kqm", "ukq": "qqa", "aab": "aba"},
			"func_add":                 func(a, b int) int { return a + b },
			"func_add_iface":           func(a, b any) any { return a.(int) + b.(int) },
			"func_variadic":            func(msg string, args ...any) string { return fmt.Sprintf(msg, args...) },
			"func_variadic_sum_int": func(args ...int) int {
				s := 0
				for _, i := range args {
					s += i
				}
				return s
			},
			"func_variadic_sum_int2": func(args ...*p2.Value) *p2.Value {
				s := 0
				for _, i := range args {
					s += i.Integer()
				}
				return p2.AsValue(s)
			},
			"func_ensure_nil": func(x any) bool { return x == nil },
			"func_ensure_nil_variadic": func(args ...any) bool {
				for _, i := range args {
					if i != nil {
						return false
					}
				}
				return true
			},
		},
		"complex": map[string]any{
			"is_admin":  suiteIsAdmin,
			"post":      suitePost{Text: "<h2>Hello!</h2><p>Welcome to my new blog page. I'm using pongo2 which supports {{ variables }} and {% tags %}.</p>", Created: suiteTime2},
			"comments":  comments(suiteTime1, suiteTime2, suiteTime1, "user2"),
			"comments2": comments(suiteTime2, suiteTime1, suiteTime1, "user1"),
		},
	}
}

// Outcomes of rules of this engine (testdata/suites/README.md).
const (
	// refused: rolemark refuses a tag, filter or form at compile time,
	// with an error that says why (pongo2/doc.go lists them).
	refused suites.Outcome = "refused by design"
	// formatted: equal once pongo2's True, False and %f floats are
	// written as every rolemark engine writes them (true, false, 3.1415).
	formatted suites.Outcome = "values formatted"
)

var (
	refusedRE = regexp.MustCompile(`is not allowed in rolemark templates|is not supported|a file name computed at render time|cannot print a value of type|needs its argument`)
	boolRE    = regexp.MustCompile(`\b(True|False)\b`)
	floatRE   = regexp.MustCompile(`\b\d+\.\d{6}\b`) // %f
)

// goFormat rewrites pongo2's True, False and %f floats in s as
// roleparse.FormatValue writes them.
func goFormat(s string) string {
	s = boolRE.ReplaceAllStringFunc(s, strings.ToLower)
	return floatRE.ReplaceAllStringFunc(s, func(f string) string {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return f
		}
		return roleparse.FormatValue(x)
	})
}

// suiteRules are the template_tests files whose content differs from
// pongo2's output by a rule of testdata/suites/README.md, with the rule.
var suiteRules = map[string]string{
	"template_tests/extends.tpl/extends":               "a partial's partials resolve from the template compiled",
	"template_tests/extends_super.tpl/extends_super":   "a partial's partials resolve from the template compiled",
	"template_tests/extends_super2.tpl/extends_super2": "a partial's partials resolve from the template compiled",
	"template_tests/with.tpl/with":                     "a struct prints with fmt, as in every rolemark engine",
	"template_tests/with.tpl/with:14":                  "a struct prints with fmt, as in every rolemark engine",
}

// TestTemplateSuite renders pongo2 v6's template_tests (testdata/suites,
// made by scripts/suites/convert.go) with pongo2 and, wrapped in a user
// message, with the pongo2 engine; the content must be pongo2's output
// read as markup (its autoescaping decoded once) or follow a rule.
func TestTemplateSuite(t *testing.T) {
	cases := suites.Load(t, "testdata/suites/template_tests.json")
	files := cases[len(cases)-1].Partials
	tally := suites.Tally{}
	for _, c := range cases {
		if c.Skip != "" || c.DataExpr != "" {
			// .options: pongo2's TrimBlocks and LStripBlocks, which the
			// engine does not offer
			tally[suites.Skipped]++
			continue
		}
		raw := rawPongo2(files, c.Template)
		s := suites.Sides{Raw: raw, Wrapped: rawPongo2(files, suites.Wrap(c.Template)), Ours: rolemarkPongo2(files, c.Template), Decode: true}
		o := classify(s)
		got, _ := s.Ours.Content()
		if o == suites.Missing {
			m := s
			m.Ours = rolemarkPongo2(files, c.Template, engine.AllowMissing())
			if mo := classify(m); mo == suites.Differs || mo == suites.Missing {
				o = suites.Differs
			}
		}
		rule, ruled := suiteRules[c.ID()]
		switch {
		case o == suites.Differs && ruled:
			o = suites.Ruled
		case o == suites.Differs:
			want, _ := suites.Decode(raw.Out)
			t.Errorf("%s: differs from pongo2 (err %v; rolemark err %v, %d messages)\n%s", c.ID(), raw.Err, s.Ours.Err, len(s.Ours.Msgs), lineDiff(want, got))
		case ruled:
			t.Errorf("%s: listed in suiteRules (%s) but agrees with pongo2 (%s)", c.ID(), rule, o)
		}
		if testing.Verbose() && o != suites.Identical {
			t.Logf("%s: %s (%v)", c.ID(), o, s.Ours.Err)
		}
		tally[o]++
	}
	tally.Report(t, "template_tests")
}

// classify is suites.Compare with this engine's rules.
func classify(s suites.Sides) suites.Outcome {
	o := suites.Compare(s)
	if o == suites.Differs && s.Raw.Err == nil && s.Ours.Err != nil && refusedRE.MatchString(s.Ours.Err.Error()) {
		return refused
	}
	if o == suites.Differs && s.Raw.Err == nil && s.Ours.Err == nil {
		f := s
		f.Raw.Out, f.Wrapped.Out = goFormat(s.Raw.Out), goFormat(s.Wrapped.Out)
		if suites.Compare(f) != suites.Differs {
			return formatted
		}
	}
	return o
}

// lineDiff shows the lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(g) {
			y = g[i]
		}
		if x != y {
			fmt.Fprintf(&b, "line %d:\n  pongo2:   %q\n  rolemark: %q\n", i+1, x, y)
		}
	}
	return b.String()
}

func suiteFS(files map[string]string, src string) fstest.MapFS {
	fsys := fstest.MapFS{"case.pongo2": {Data: []byte(src)}}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

func rawPongo2(files map[string]string, src string) (r suites.Render) {
	defer func() {
		if p := recover(); p != nil {
			r.Err = fmt.Errorf("panic: %v", p)
		}
	}()
	set := p2.NewSet("suite", p2.NewFSLoader(suiteFS(files, src)))
	tpl, err := set.FromFile("case.pongo2")
	if err != nil {
		return suites.Render{Err: err}
	}
	out, err := tpl.Execute(p2.Context(suiteContext()))
	return suites.Render{Out: out, Err: err}
}

func rolemarkPongo2(files map[string]string, src string, opts ...engine.Option) suites.Render {
	set := engine.NewSet(pongo2.New()).Option(engine.ParseOptions(roleparse.KeepSpace())).Option(opts...)
	tpl, err := set.ParseFS(suiteFS(files, suites.Wrap(src)), "case.pongo2")
	if err != nil {
		return suites.Render{Err: err}
	}
	msgs, err := tpl.Messages(context.Background(), suiteContext())
	return suites.Render{Msgs: msgs, Err: err}
}
