package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestDataFunctionPanicHasPosition: a Go function of the data that panics
// when the template calls it is an error at the call that names the
// function and the fault, which errors.As finds as the *engine.PanicError
// it is, in every engine: jinja named the template only and said
// "function()", gotmpl gave text/template's "error calling call: …" with
// no *PanicError, handlebars (where raymond calls the function) no place,
// and none named the function.
func TestDataFunctionPanicHasPosition(t *testing.T) {
	set := engine.NewSet(jinja.New(), pongo2.New(), gotmpl.New(), handlebars.New())
	templates := []struct {
		engine, name, src string
		col               int
	}{
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ fetch(1) }}</message>", 12},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ fetch(1) }}</message>", 7},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{call .fetch 1}}</message>", 6},
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{fetch}}</message>", 6},
	}
	for _, tt := range templates {
		t.Run(tt.engine, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, tt.src)
			require.NoError(t, err)
			var fetch any = func(i int) string { var a []int; return fmt.Sprint(a[i]) }
			if tt.engine == "handlebars" {
				fetch = func() string { var a []int; return fmt.Sprint(a[1]) }
			}
			_, err = tpl.Messages(context.Background(), map[string]any{"fetch": fetch})
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, tt.name+":2:"+strconv.Itoa(tt.col)+`: calling "fetch": panic: runtime error: index out of range [1] with length 0`, err.Error())
			var pe *engine.PanicError
			assert.True(t, errors.As(err, &pe), "%v", err)
		})
	}
}

// TestDataFunctionInAListPanicNamed: gotmpl names a function of the data
// that panics in a []any by its list's key and index, as it names one in
// a map by its key; text/template's "error calling call: …" named none.
func TestDataFunctionInAListPanicNamed(t *testing.T) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{call (index .fs 1) 1}}</message>")
	require.NoError(t, err)
	fetch := func(i int) string { var a []int; return fmt.Sprint(a[i]) }
	_, err = tpl.Messages(context.Background(), map[string]any{"fs": []any{"a", fetch}})
	var ee *engine.Error
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, `t.tmpl:2:6: calling "fs[1]": panic: runtime error: index out of range [1] with length 0`, err.Error())
	var pe *engine.PanicError
	assert.True(t, errors.As(err, &pe), "%v", err)
}

type withFunc struct {
	Name string
	Get  func() string
}

// TestDataFunctionDeeperPanicNamed: handlebars and pongo2 name a function
// of the data that panics below a variable (in a map, a list or a struct's
// field) by its key or field, as they name one at the top: both said
// "template engine panicked: …", handlebars with no place. The name is
// found once the render has panicked, from the function's code on the
// stack: a render that does not panic pays nothing.
func TestDataFunctionDeeperPanicNamed(t *testing.T) {
	set := engine.NewSet(pongo2.New(), handlebars.New())
	vars := func() map[string]any {
		return map[string]any{
			"obj":   map[string]any{"name": "ada", "fetch": func() string { var a []int; return fmt.Sprint(a[1]) }},
			"s":     &withFunc{Name: "bo", Get: func() string { panic("no get") }},
			"list":  []any{map[string]any{"load": func() string { panic("no load") }}},
			"typed": map[string]func() string{"run": func() string { panic("no run") }},
			"fine":  func() string { return "fine" },
		}
	}
	for _, tt := range []struct{ engine, name, src, want string }{
		{"handlebars", "t.hbs", "{{fine}}\nhi {{obj.fetch}}", `t.hbs:2:6: calling "fetch": panic: runtime error: index out of range [1] with length 0`},
		{"handlebars", "t.hbs", "{{fine}}\nhi {{s.Get}}", `t.hbs:2:6: calling "Get": panic: no get`},
		{"handlebars", "t.hbs", "{{fine}}\nhi {{typed.run}}", `t.hbs:2:6: calling "run": panic: no run`},
		{"handlebars", "t.hbs", "{{fine}}\nhi {{#each list}}{{this.load}}{{/each}}", `t.hbs: calling "load": panic: no load`},
		{"pongo2", "t.pongo2", "{{ fine() }}\nhi {{ obj.fetch() }}", `t.pongo2:2:7: calling "fetch": panic: runtime error: index out of range [1] with length 0`},
		{"pongo2", "t.pongo2", "{{ fine() }}\nhi {{ s.Get() }}", `t.pongo2:2:7: calling "Get": panic: no get`},
		{"pongo2", "t.pongo2", "{{ fine() }}\nhi {{ typed.run() }}", `t.pongo2:2:7: calling "run": panic: no run`},
		{"pongo2", "t.pongo2", "{{ fine() }}\nhi {% for x in list %}{{ x.load() }}{% endfor %}", `t.pongo2:2:26: calling "load": panic: no load`},
	} {
		t.Run(tt.engine+"/"+tt.src[strings.Index(tt.src, "\n")+1:], func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, "<message role=\"user\">"+tt.src+"</message>")
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), vars())
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, tt.want, err.Error())
			var pe *engine.PanicError
			assert.True(t, errors.As(err, &pe), "%v", err)
		})
	}
}

// TestDataFunctionInAStructFieldPanicNamed: gotmpl names a function of
// the data that panics in a struct's field by the field, as it names one
// in a map by its key; text/template's "error calling call: …" named
// none. The struct the template reads is a copy with the function
// wrapped, which prints and answers as the caller's does.
func TestDataFunctionInAStructFieldPanicNamed(t *testing.T) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{.s.Name}} {{call .s.Get}}</message>")
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), map[string]any{"s": withFunc{Name: "ada", Get: func() string { panic("no get") }}})
	var ee *engine.Error
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, `t.tmpl:2:18: calling "Get": panic: no get`, err.Error())
	var pe *engine.PanicError
	assert.True(t, errors.As(err, &pe), "%v", err)

	msgs, err := tpl.Messages(context.Background(), map[string]any{"s": withFunc{Name: "ada", Get: func() string { return "got" }}})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	assert.Equal(t, "hi ada got", msgs[0].Text())

	// a caller's map type of functions, by its key
	tpl, err = engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{call .m.ok}} {{call .m.run}}</message>")
	require.NoError(t, err)
	m := map[string]func() string{"ok": func() string { return "ok" }, "run": func() string { panic("no run") }, "none": nil}
	_, err = tpl.Messages(context.Background(), map[string]any{"m": m})
	assert.EqualError(t, err, `t.tmpl:2:21: calling "run": panic: no run`)
	assert.ErrorAs(t, err, &pe)
}

// TestNilDataFunctionNamed: a nil function in the data, which handlebars
// and pongo2 call when the template uses it, is an error at its use that
// names it: reflect's "call of nil function" came back as "template engine
// panicked", with no name, and in handlebars with no place (handlebars
// still places none inside an #each, as for any function of the data).
func TestNilDataFunctionNamed(t *testing.T) {
	set := engine.NewSet(pongo2.New(), handlebars.New())
	for _, tt := range []struct{ engine, name, src, want string }{
		{"handlebars", "t.hbs", "hi\n {{nf}}", `t.hbs:2:4: calling "nf": panic: reflect.Value.Call: call of nil function`},
		{"handlebars", "t.hbs", "hi\n {{#each l}}{{nf}}{{/each}}", `t.hbs: calling "nf": panic: reflect.Value.Call: call of nil function`},
		{"pongo2", "t.pongo2", "hi\n {{ nf }}", `t.pongo2:2:5: calling "nf": panic: reflect.Value.Call: call of nil function`},
		{"pongo2", "t.pongo2", "hi\n {{ nf() }}", `t.pongo2:2:5: calling "nf": panic: reflect.Value.Call: call of nil function`},
	} {
		t.Run(tt.engine+"/"+tt.src, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, "<message role=\"user\">"+tt.src+"</message>")
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"nf": (func() string)(nil), "l": []any{1}})
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var pe *engine.PanicError
			assert.ErrorAs(t, err, &pe)
		})
	}
}
