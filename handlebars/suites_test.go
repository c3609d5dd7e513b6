package handlebars_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/aymerick/raymond"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/suites"
	"github.com/rolemark/rolemark/roleparse"
)

// suiteRules are the converted cases whose content differs from raymond's
// output by a rule of testdata/suites/README.md, with the rule.
var suiteRules = map[string]string{
	"partials.yml/Recursion":                         "recursive partials are refused at compile time",
	"handlebars/builtins_test.go:builtinsTests/#log": "the log helper is not available",
	// raymond has a block helper named equal; Funcs refuses a caller's
	// helper of a built-in's name, where raymond lets a template's own
	// shadow it
	"handlebars/subexpressions_test.go:subexpressionsTests/helper w args":                                               "a helper named like a built-in is refused",
	"handlebars/subexpressions_test.go:subexpressionsTests/supports much nesting":                                       "a helper named like a built-in is refused",
	"handlebars/subexpressions_test.go:subexpressionsTests/with hashes":                                                 "a helper named like a built-in is refused",
	"handlebars/subexpressions_test.go:subexpressionsTests/provides each nested helper invocation its own options hash": "a helper named like a built-in is refused",
	"handlebars/subexpressions_test.go:subexpressionsTests/mixed paths and helpers":                                     "a helper named like a built-in is refused",
	"handlebars/subexpressions_test.go:subexpressionsTests/as hashes":                                                   "a helper named like a built-in is refused",
	"handlebars/helpers_test.go:helpersTests/helpers hash - in cases of conflict, helpers win (1)":                      "a helper named like a built-in is refused",
	"handlebars/helpers_test.go:helpersTests/helpers hash - in cases of conflict, helpers win (2)":                      "a helper named like a built-in is refused",
	// rolemark's #each walks a map in the order of its sorted keys,
	// raymond's in Go's random order (the suite accepts either), so the
	// case agrees by chance at times ("sometimes:")
	"handlebars/builtins_test.go:builtinsTests/#each - each with an object and @key (map)": "sometimes: #each sorts a map's keys",
	"handlebars/builtins_test.go:builtinsTests/#each - each object with @first":            "sometimes: #each sorts a map's keys",
	"handlebars/builtins_test.go:builtinsTests/#each - each object with @index":            "sometimes: #each sorts a map's keys",
	"handlebars/builtins_test.go:builtinsTests/#each - each object with @last":             "sometimes: #each sorts a map's keys",
	"handlebars/builtins_test.go:builtinsTests/#each - each without data (2)":              "sometimes: #each sorts a map's keys",
	// a function in the data is no helper: helpers are known when the
	// template compiles (handlebars.Funcs), and only a helper takes
	// arguments or a block
	"handlebars/basic_test.go:basicTests/functions with context argument":               "a data function takes no arguments",
	"handlebars/basic_test.go:basicTests/pathed functions with context argument":        "a data function takes no arguments",
	"handlebars/basic_test.go:basicTests/depthed functions with context argument":       "a data function takes no arguments",
	"handlebars/basic_test.go:basicTests/block functions with context argument":         "a data function takes no arguments",
	"handlebars/basic_test.go:basicTests/depthed block functions with context argument": "a data function takes no arguments",
}

// TestSuites renders mustache/spec's and raymond's own cases
// (testdata/suites, made by scripts/suites/convert.go) with raymond and,
// wrapped in a user message, with the handlebars engine: the message's
// content must be raymond's output read as markup (its HTML escapes
// decoded once), or the case must be listed in suiteRules.
func TestSuites(t *testing.T) {
	for _, suite := range []string{"mustache", "raymond"} {
		t.Run(suite, func(t *testing.T) {
			tally := suites.Tally{}
			for _, c := range suites.Load(t, "testdata/suites/"+suite+".json") {
				o := runSuiteCase(t, c)
				tally[o]++
			}
			tally.Report(t, suite)
		})
	}
}

func runSuiteCase(t *testing.T, c suites.Case) suites.Outcome {
	t.Helper()
	w, written := suiteWritten[c.ID()]
	if c.Skip != "" {
		// run when the test writes the case's Go code again
		if !written || c.DataExpr == "Go code" && w.data == nil || strings.Contains(c.Skip, "private data is Go code") {
			return suites.Skipped
		}
		if w.data != nil {
			c.Data = w.data
		}
	}
	vars, ok := c.Data.(map[string]any)
	if c.Data == nil {
		vars, ok = map[string]any{}, true
	}
	if !ok {
		return suites.Skipped // rolemark's variables are a map
	}
	helpers, err := helpersOf(c.Helpers)
	if err != nil {
		t.Fatalf("%s: %v", c.ID(), err)
	}
	for name, h := range w.helpers {
		if helpers == nil {
			helpers = map[string]any{}
		}
		helpers[name] = h
	}
	raw := rawRaymond(c, c.Template, vars, helpers)
	s := suites.Sides{Raw: raw, Wrapped: rawRaymond(c, suites.Wrap(c.Template), vars, helpers), Ours: rolemarkHandlebars(c, vars, helpers, false), Decode: true}
	o := suites.Compare(s)
	ours := s.Ours
	if o == suites.Missing {
		s.Ours = rolemarkHandlebars(c, vars, helpers, true)
		if m := suites.Compare(s); m == suites.Differs || m == suites.Missing || m == suites.BothFail {
			o = suites.Differs
		}
	}
	if os.Getenv("SUITES_DEBUG") != "" && o != suites.Identical {
		t.Logf("%s: %s (raymond err %v, rolemark err %v)", c.ID(), o, raw.Err, ours.Err)
	}
	rule, ruled := suiteRules[c.ID()]
	switch {
	case o == suites.Differs && ruled:
		return suites.Ruled
	case o == suites.Differs:
		got, _ := ours.Content()
		t.Errorf("%s: differs from raymond\ntemplate: %q\ndata: %v\npartials: %q\nraymond: %q (err %v)\nrolemark: %q (err %v, %d messages)",
			c.ID(), c.Template, c.Data, c.Partials, raw.Out, raw.Err, got, ours.Err, len(ours.Msgs))
	case ruled && !strings.HasPrefix(rule, "sometimes:"):
		t.Errorf("%s: listed in suiteRules (%s) but agrees with raymond (%s)", c.ID(), rule, o)
	}
	return o
}

func rawRaymond(c suites.Case, src string, vars, helpers map[string]any) (r suites.Render) {
	defer func() {
		if p := recover(); p != nil {
			r.Err = fmt.Errorf("panic: %v", p)
		}
	}()
	tpl, err := raymond.Parse(src)
	if err != nil {
		return suites.Render{Err: err}
	}
	if len(c.Partials) > 0 {
		tpl.RegisterPartials(c.Partials)
	}
	if len(helpers) > 0 {
		tpl.RegisterHelpers(helpers)
	}
	var frame *raymond.DataFrame
	if c.Private != nil {
		frame = raymond.NewDataFrame()
		for k, v := range c.Private {
			frame.Set(k, v)
		}
	}
	out, err := tpl.ExecWith(vars, frame)
	return suites.Render{Out: out, Err: err}
}

func rolemarkHandlebars(c suites.Case, vars, helpers map[string]any, allowMissing bool) suites.Render {
	fsys := fstest.MapFS{"t.hbs": {Data: []byte(suites.Wrap(c.Template))}}
	for name, src := range c.Partials {
		fsys[name+".hbs"] = &fstest.MapFile{Data: []byte(src)}
	}
	set := engine.NewSet(handlebars.New(handlebars.Funcs(helpers))).Option(engine.ParseOptions(roleparse.KeepSpace()))
	if allowMissing {
		set = set.Option(engine.AllowMissing())
	}
	tpl, err := set.ParseFS(fsys, "t.hbs")
	if err != nil {
		return suites.Render{Err: err}
	}
	msgs, err := tpl.Messages(context.Background(), vars, engine.Data(c.Private))
	return suites.Render{Msgs: msgs, Err: err}
}
