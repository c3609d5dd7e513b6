package pongo2_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/suites"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

// TestGoSuite runs the cases of pongo2 v6's Go tests that render a
// template with a context (pongo2_template_test.go's
// TestTemplate_Functions, pongo2_test.go's TestImplicitExecCtx,
// pongo2_issues_test.go's TestIssue151), whose contexts hold Go functions
// and so are written again here, the same way as TestTemplateSuite.
func TestGoSuite(t *testing.T) {
	mydict := map[string]any{"foo": "bar", "foobar": 8379}
	cases := []struct {
		id, src string
		ctx     map[string]any
	}{
		{"TestTemplate_Functions/NoError", "{{ testFunc(mydict) }}", map[string]any{"mydict": mydict, "testFunc": func(i any) (string, error) {
			b, err := json.Marshal(i)
			return string(b), err
		}}},
		{"TestTemplate_Functions/WithError", "{{ testFunc(mydict) }}", map[string]any{"mydict": mydict, "testFunc": func(i any) (string, error) {
			return "", errors.New("something went wrong")
		}}},
		{"TestTemplate_Functions/TooMuchArguments", "{{ testFunc(mydict) }}", map[string]any{"mydict": mydict, "testFunc": func(i any) (string, int, error) { return "", 0, nil }}},
		{"TestTemplate_Functions/InvalidArguments", "{{ testFunc(mydict) }}", map[string]any{"mydict": mydict, "testFunc": func(i any) (string, int) { return "", 0 }}},
		{"TestTemplate_Functions/NilToNonNilParameter", "{{ testFunc(nil) }}", map[string]any{"testFunc": func(i int) int { return 1 }}},
		{"TestImplicitExecCtx/ctx", "{{ ImplicitExec }}", map[string]any{"Value": "a stringy thing", "ImplicitExec": func(ctx *p2.ExecutionContext) string {
			return ctx.Public["Value"].(string)
		}}},
		{"TestImplicitExecCtx/plain", "{{ ImplicitExec }}", map[string]any{"ImplicitExec": func() string { return "a stringy thing" }}},
		{"TestIssue151", "{{ mydict.51232_3 }}{{ 12345_123}}{{ 995189baz }}", map[string]any{
			"mydict": map[string]string{"51232_3": "foo"}, "12345_123": "bar", "995189baz": "baz"}},
	}
	tally := suites.Tally{}
	for _, c := range cases {
		render := func(src string) (r suites.Render) {
			defer func() {
				if p := recover(); p != nil {
					r.Err = errors.New("panic")
				}
			}()
			tpl, err := p2.FromString(src)
			if err != nil {
				return suites.Render{Err: err}
			}
			out, err := tpl.Execute(p2.Context(c.ctx))
			return suites.Render{Out: out, Err: err}
		}
		s := suites.Sides{Raw: render(c.src), Wrapped: render(suites.Wrap(c.src)), Decode: true}
		s.Ours = rolemarkPongo2WithData(c.src, c.ctx)
		o := classify(s)
		got, _ := s.Ours.Content()
		if o == suites.Differs {
			t.Errorf("%s: differs from pongo2\ntemplate: %q\npongo2: %q (err %v)\nrolemark: %q (err %v)", c.id, c.src, s.Raw.Out, s.Raw.Err, got, s.Ours.Err)
		}
		if testing.Verbose() && o != suites.Identical {
			t.Logf("%s: %s (pongo2 err %v; rolemark err %v)", c.id, o, s.Raw.Err, s.Ours.Err)
		}
		tally[o]++
	}
	tally.Report(t, "pongo2 Go tests")
}

func rolemarkPongo2WithData(src string, vars map[string]any) suites.Render {
	set := engine.NewSet(pongo2.New()).Option(engine.ParseOptions(roleparse.KeepSpace()))
	tpl, err := set.Parse("pongo2", "case.pongo2", suites.Wrap(src))
	if err != nil {
		return suites.Render{Err: err}
	}
	msgs, err := tpl.Messages(context.Background(), vars)
	return suites.Render{Msgs: msgs, Err: err}
}
