package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestDataFunctionPanicHasPosition: a Go function of the data that panics
// when the template calls it is an error at the call, which errors.As
// finds as the *engine.PanicError it is (jinja named the template only).
// Handlebars, where raymond calls the function, is left out: its place is
// not known.
func TestDataFunctionPanicHasPosition(t *testing.T) {
	set := engine.NewSet(jinja.New(), pongo2.New(), gotmpl.New())
	templates := []struct{ engine, name, src string }{
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ f() }}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ f() }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{call .f}}</message>"},
	}
	for _, tt := range templates {
		t.Run(tt.engine, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, tt.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"f": func() string { panic("boom") }})
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, 2, ee.Line, "%v", err)
			assert.Positive(t, ee.Col, "%v", err)
			assert.Contains(t, err.Error(), "boom")
			if tt.engine != "gotmpl" { // text/template makes the panic an error of its own
				var pe *engine.PanicError
				assert.True(t, errors.As(err, &pe), "%v", err)
			}
		})
	}
}
