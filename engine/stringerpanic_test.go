package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// panicStringer is a value of the data whose String method panics.
type panicStringer struct{}

func (panicStringer) String() string { panic("boom in String") }

// TestStringerThatPanicsIsAnError: a fmt.Stringer of the data whose
// String panics fails the render; handlebars wrote fmt's
// "%!s(PANIC=String method: …)" into the message instead, as text.
// gotmpl, which prints through text/template's fmt, did the same; so did
// every engine but jinja for one inside a list.
func TestStringerThatPanicsIsAnError(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	templates := []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{s}}</message>"},
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ s }}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ s }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{.s}}</message>"},
	}
	values := map[string]any{
		"stringer":         panicStringer{},
		"error":            panicError{},
		"stringer in list": []any{panicStringer{}},
		"error in map":     map[string]any{"a": panicError{}},
	}
	for _, tt := range templates {
		for vname, v := range values {
			t.Run(tt.engine+"/"+vname, func(t *testing.T) {
				tpl, err := set.Parse(tt.engine, tt.name, tt.src)
				require.NoError(t, err)
				msgs, err := tpl.Messages(context.Background(), map[string]any{"s": v})
				require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
				var ee *engine.Error
				assert.True(t, errors.As(err, &ee), "%v", err)
				assert.Contains(t, err.Error(), "boom in ")
				var pe *engine.PanicError
				assert.True(t, errors.As(err, &pe), "%v", err)
				// at the print (jinja: the variable's first use; it
				// named the template only)
				assert.Equal(t, 2, ee.Line, "%v", err)
				assert.Positive(t, ee.Col, "%v", err)
				assert.Contains(t, err.Error(), "method of engine_test.panic", "names the method")
			})
		}
	}
}

// panicError is a value of the data whose Error panics.
type panicError struct{}

func (panicError) Error() string { panic("boom in Error") }
