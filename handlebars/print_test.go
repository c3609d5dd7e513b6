package handlebars_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

type printStringer struct{ s string }

func (p *printStringer) String() string { return "<" + p.s + ">" }

type printNode struct{ Name string }

// TestPrintedLikeOtherEngines: values raymond printed with fmt's %s print
// as gotmpl and pongo2 print them: a complex number as Go writes it
// (%!s(complex128=(1+2i))), and a nil pointer as nothing, as null prints
// (%!s(*handlebars_test.printNode=<nil>)). Left: raymond follows a pointer
// before the print helper sees it, so an error or a fmt.Stringer whose
// method has a pointer receiver prints as its struct ({<e>}).
func TestPrintedLikeOtherEngines(t *testing.T) {
	tests := []struct {
		name string
		x    any
		want string
	}{
		{"a complex number", complex(1, 2), "(1+2i)"},
		{"a complex64", complex64(complex(0.5, -1)), "(0.5-1i)"},
		{"a nil pointer", (*printNode)(nil), ""},
		{"a nil pointer with a String method", (*printStringer)(nil), ""},
		{"a pointer to a struct", &printNode{Name: "n"}, "{n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := engine.NewSet(handlebars.New()).Parse("handlebars", "t.hbs", "[{{x}}]")
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]any{"x": tt.x})
			require.NoError(t, err)
			assert.Equal(t, "["+tt.want+"]", out)
		})
	}
}
