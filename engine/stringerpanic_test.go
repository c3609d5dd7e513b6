package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
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
// (gotmpl prints through text/template's fmt, which does the same: left.)
func TestStringerThatPanicsIsAnError(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New())
	templates := []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{s}}</message>"},
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ s }}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ s }}</message>"},
	}
	for _, tt := range templates {
		t.Run(tt.engine, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, tt.src)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), map[string]any{"s": panicStringer{}})
			require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
			var ee *engine.Error
			assert.True(t, errors.As(err, &ee), "%v", err)
			assert.Contains(t, err.Error(), "boom in String")
			var pe *engine.PanicError
			assert.True(t, errors.As(err, &pe), "%v", err)
			if tt.engine == "handlebars" {
				assert.Equal(t, 2, ee.Line, "%v", err) // at the print
			}
		})
	}
}
