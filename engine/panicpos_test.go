package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
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
