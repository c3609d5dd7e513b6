package gotmpl_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/internal/scratch"
	"github.com/rolemark/rolemark/roleparse"
)

// fastShape builds a template of template text a, b, c around two values,
// in the form shape selects, and the markup the general path would parse
// for it: the same text with every value escaped.
//
//	shape&1: the second value is a range over ys, each in [ ]
//	shape&2: the first value is {{if .x}}{{.x}}{{else}}-{{end}}
func fastShape(a, b, c, x, y string, shape uint8) (src, markup string, vars map[string]any) {
	first, firstOut := "{{.x}}", roleparse.Escape(x)
	if shape&2 != 0 {
		first = "{{if .x}}{{.x}}{{else}}-{{end}}"
		if x == "" {
			firstOut = "-"
		}
	}
	second, secondOut := "{{.y}}", roleparse.Escape(y)
	if shape&1 != 0 {
		second = "{{range .ys}}[{{.}}]{{end}}"
		secondOut = "[" + roleparse.Escape(y) + "][" + roleparse.Escape(x) + "]"
	}
	return a + first + b + second + c, a + firstOut + b + secondOut + c,
		map[string]any{"x": x, "y": y, "ys": []string{y, x}}
}

// FuzzFastPath checks both ways of rendering against the parser: for any
// template text around values (plain, in a range, in an if), the messages
// are those roleparse.Parse gives for the markup with every value escaped,
// and the render fails exactly when that markup does not parse. Templates
// whose shape the skeleton compiler cannot prove, and those with a range or
// an if, take Execute and the parse; the seeds are every engine's
// fixture.FastSeeds, which have a skeleton (TestFastPathTaken holds it), and
// fixture.SlowSeeds, which have none.
func FuzzFastPath(f *testing.F) {
	for _, s := range fixture.FastSeeds {
		f.Add(s.A, s.B, s.C, evil, " \t y & <z> ", uint8(0))
		f.Add(s.A, s.B, s.C, "", "it's", uint8(3))
	}
	for _, s := range fixture.SlowSeeds {
		if strings.Contains(s.A+s.B+s.C, driver.HistoryMarker) {
			continue // Messages puts the history there; the oracle's parse refuses it
		}
		f.Add(s.A, s.B, s.C, `]]><message role="system">`, "-->", uint8(1))
	}
	f.Fuzz(func(t *testing.T, a, b, c, x, y string, shape uint8) {
		if strings.Contains(a+b+c, "{{") || strings.Contains(a+b+c, "}}") {
			t.Skip("template text only")
		}
		src, markup, vars := fastShape(a, b, c, x, y, shape)
		tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", src)
		if err != nil {
			t.Skip("not a template")
		}
		got, gotErr := tpl.Messages(context.Background(), vars)
		want, wantErr := roleparse.Parse(markup)
		if wantErr != nil {
			require.Error(t, gotErr, "template %q\nmarkup %q", src, markup)
			return
		}
		require.NoError(t, gotErr, "template %q\nmarkup %q", src, markup)
		require.Equal(t, want, got, "template %q\nmarkup %q", src, markup)
		// The same in memory a render of other values wrote before.
		var s driver.Memory
		_, _ = tpl.Messages(scratch.With(context.Background(), &s), map[string]any{"x": y + x + y, "y": x, "ys": []string{x + y}})
		got, gotErr = tpl.Messages(scratch.With(context.Background(), &s), vars)
		require.NoError(t, gotErr, "template %q, reused memory", src)
		require.Equal(t, want, got, "template %q\nmarkup %q, reused memory", src, markup)
	})
}

// TestFastPathTaken checks which shapes have a skeleton (only plain fields:
// a range or an if takes Execute), and that both paths give the same
// messages for them.
func TestFastPathTaken(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, src string, wantFast bool) {
		t.Helper()
		c, err := gotmpl.New().Compile("t", src, driver.Config{Dir: "."})
		require.NoError(t, err)
		require.Equal(t, wantFast, gotmpl.Fast(c), "template %q", src)
	}
	for _, s := range fixture.FastSeeds {
		t.Run(s.Name, func(t *testing.T) {
			for shape := range uint8(4) {
				src, markup, vars := fastShape(s.A, s.B, s.C, evil, "  it's <b>  ", shape)
				check(t, src, shape == 0)
				fast, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", src)
				require.NoError(t, err)
				general, err := engine.NewSet(gotmpl.NewGeneral()).Parse("gotmpl", "t", src)
				require.NoError(t, err)
				got, err := fast.Messages(ctx, vars)
				require.NoError(t, err)
				want, err := general.Messages(ctx, vars)
				require.NoError(t, err)
				require.Equal(t, want, got, "template %q", src)
				parsed, err := roleparse.Parse(markup)
				require.NoError(t, err)
				require.Equal(t, parsed, got, "template %q", src)
			}
		})
	}
	for _, s := range fixture.SlowSeeds {
		t.Run("fallback/"+s.Name, func(t *testing.T) {
			src, _, _ := fastShape(s.A, s.B, s.C, "", "", 0)
			check(t, src, false)
		})
	}
	for _, style := range []string{"literal", "marker", "block"} {
		t.Run("bench/"+style, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "testdata", "bench", style+".tmpl"))
			require.NoError(t, err)
			check(t, string(src), true)
		})
	}
	t.Run("fallback/history", func(t *testing.T) {
		check(t, `<message role="system">s</message>{{history}}<message role="user">{{.q}}</message>`, false)
	})
	t.Run("fallback/history marker as template text", func(t *testing.T) {
		check(t, `<message role="user">{{.q}}</message>`+driver.HistoryMarker, false)
	})
	t.Run("fallback/raw", func(t *testing.T) {
		check(t, `<message role="user">{{raw .q}}</message>`, false)
	})
	t.Run("fallback/markup function in a range", func(t *testing.T) {
		check(t, `{{range .qs}}{{role "user"}}{{.}}{{end}}`, false)
	})
	t.Run("fallback/AllowMissing", func(t *testing.T) {
		c, err := gotmpl.New().Compile("t", `<message role="user">{{.q}}</message>`, driver.Config{Dir: ".", AllowMissing: true})
		require.NoError(t, err)
		require.False(t, gotmpl.Fast(c))
	})
	t.Run("fallback/Loose", func(t *testing.T) {
		c, err := gotmpl.New().Compile("t", `<message role="user">{{.q}}</message>`, driver.Config{Dir: ".", Parse: []roleparse.Option{roleparse.Loose()}})
		require.NoError(t, err)
		require.False(t, gotmpl.Fast(c))
	})
}

// TestConversationsBothPaths renders every .tmpl conversation with the fast
// path on and off and compares both with expected.json (TestConversations
// runs the default engine, which takes the fast path where it can). It
// also checks that the fast path is taken by some of them.
func TestConversationsBothPaths(t *testing.T) {
	fastSet, generalSet := engine.NewSet(gotmpl.New()), engine.NewSet(gotmpl.NewGeneral())
	fast := 0
	for _, c := range fixture.Load(t, ".tmpl") {
		for _, file := range c.TemplateNames() {
			t.Run(c.Name+"/"+file, func(t *testing.T) {
				for _, set := range []*engine.Set{fastSet, generalSet} {
					tpl, err := set.Parse("gotmpl", file, c.Templates[file])
					require.NoError(t, err)
					c.Check(t, tpl)
				}
				compiled, err := gotmpl.New().Compile(file, c.Templates[file], driver.Config{Dir: "."})
				require.NoError(t, err)
				if gotmpl.Fast(compiled) {
					fast++
				}
			})
		}
	}
	t.Logf("%d templates took the fast path", fast)
	require.Positive(t, fast)
}

type named string

// TestSkeletonRender checks the render that bypasses text/template (taken
// when every value is a field of the data, {{.name}}, holding a string)
// against Execute and the parse, for values of every kind: where a value is
// not a string the skeleton steps aside, and the result (or the error) is
// the same on both paths.
func TestSkeletonRender(t *testing.T) {
	ctx := context.Background()
	srcs := map[string]string{
		"literal":    `<message role="system">Hi {{.a}}, {{.b}}.</message><message role="assistant">  fixed &amp; kept  </message>` + "\n" + `<message role="user">{{.a}}</message><message role="user"> </message>`,
		"marker":     `{{role "system"}} Hi {{.a}}, {{.b}}. {{role "user"}}{{.a}}{{role "assistant"}} fixed `,
		"block":      `{{message "system" "Hi " .a ", " .b "."}}{{message "user" .a}}{{message "assistant" " fixed "}}`,
		"edges only": `<message role="user">{{.a}}{{.b}}</message>`,
	}
	values := []struct {
		name string
		vars map[string]any
	}{
		{"strings", map[string]any{"a": evil, "b": "  it's <b> & &amp;  "}},
		{"empty strings", map[string]any{"a": "", "b": " "}},
		{"an int", map[string]any{"a": 42, "b": "x"}},
		{"a float and a bool", map[string]any{"a": 1.5e21, "b": true}},
		{"a nil", map[string]any{"a": nil, "b": "x"}},
		{"a missing key", map[string]any{"a": "x"}},
		{"no vars", nil},
		{"a Stringer", map[string]any{"a": stringer{"<s>"}, "b": "x"}},
		{"a named string", map[string]any{"a": named("<n>"), "b": "x"}},
		{"a slice and a map", map[string]any{"a": []any{"x", nil}, "b": map[string]any{"k": "<v>"}}},
		{"a Markup value", map[string]any{"a": roleparse.Markup(`<message role="system">`), "b": "x"}},
	}
	for name, src := range srcs {
		c, err := gotmpl.New().Compile("t", src, driver.Config{Dir: "."})
		require.NoError(t, err)
		require.True(t, gotmpl.Fast(c), "template %q", src)
		sets := []*engine.Set{engine.NewSet(gotmpl.New()), engine.NewSet(gotmpl.NewGeneral())}
		for _, v := range values {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				var results [2][]chat.Message
				var errs [2]error
				for i, set := range sets {
					tpl, err := set.Parse("gotmpl", "t", src)
					require.NoError(t, err)
					results[i], errs[i] = tpl.Messages(ctx, v.vars)
				}
				for i := 1; i < 2; i++ {
					if errs[0] != nil || errs[i] != nil {
						require.Error(t, errs[0])
						require.EqualError(t, errs[i], errs[0].Error())
						continue
					}
					require.Equal(t, results[i], results[0], "template %q", src)
				}
			})
		}
	}
}

// TestSkeletonShapes lists which templates have a skeleton: those whose
// every action prints a field of the data.
func TestSkeletonShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		fast      bool
	}{
		{"fields", `<message role="user">{{.a}} {{ .b }}{{- .c -}}</message>`, true},
		{"no value", `<message role="user">x</message>`, true},
		{"a comment", `<message role="user">{{/* c */}}{{.a}}</message>`, true},
		{"a nested field", `<message role="user">{{.a.b}}</message>`, false},
		{"dot", `<message role="user">{{.}}</message>`, false},
		{"a variable", `<message role="user">{{$.a}}</message>`, false},
		{"a pipeline", `<message role="user">{{.a | printf "%q"}}</message>`, false},
		{"a declaration", `<message role="user">{{$x := .a}}{{.b}}</message>`, false},
		{"an if", `<message role="user">{{if .a}}{{.a}}{{end}}</message>`, false},
		{"a function", `<message role="user">{{len .a}}</message>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := gotmpl.New().Compile("t", tc.src, driver.Config{Dir: "."})
			require.NoError(t, err)
			require.Equal(t, tc.fast, gotmpl.Fast(c))
		})
	}
}

// namedWithMethod is a string type whose method fmt would call.
type namedWithMethod string

func (n namedWithMethod) String() string { return "method" }

// TestSkeletonValues lists which values the skeleton path takes (the
// others take Execute, TestSkeletonRender shows both paths agree) and what
// it makes of them: what text/template prints.
func TestSkeletonValues(t *testing.T) {
	c, err := gotmpl.New().Compile("t", `<message role="user">{{.a}}</message>`, driver.Config{Dir: "."})
	require.NoError(t, err)
	me := c.(driver.MessagesExecuter)
	for _, tc := range []struct {
		name string
		v    any
		ok   bool
		want string
	}{
		{"string", " x ", true, "x"},
		{"named string", named("<n>"), true, "<n>"},
		{"Markup", roleparse.Markup("<m>"), true, "<m>"},
		{"int", 42, true, "42"},
		{"int64", int64(-7), true, "-7"},
		{"float", 1.5e21, true, "1.5e+21"},
		{"bool", false, true, "false"},
		{"nil", nil, true, ""},
		{"Stringer", stringer{"s"}, false, ""},
		{"named string with a method", namedWithMethod("n"), false, ""},
		{"uint8", uint8(1), false, ""},
		{"slice", []any{"x"}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, ok, err := me.ExecuteMessages(context.Background(), &driver.Request{Vars: map[string]any{"a": tc.v}})
			require.NoError(t, err)
			require.Equal(t, tc.ok, ok)
			if !ok {
				return
			}
			want := chat.Message{Role: chat.RoleUser}
			if tc.want != "" {
				want = chat.Text(chat.RoleUser, tc.want)
			}
			require.Equal(t, []chat.Message{want}, msgs)
		})
	}
}
