package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestDepthErrorPosition: a *engine.DepthError (data that holds itself)
// named the template only; the handlebars one not even the variable. Every
// engine now names the line and column where the template reads the
// variable, the same place a *engine.MissingError names when the variable
// is absent; handlebars, which finds the value as it prints it, names the
// print that reached it (inside a loop, the loop's {{this}}).
func TestDepthErrorPosition(t *testing.T) {
	cyc := map[string]any{"a": 1}
	cyc["self"] = cyc
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New(), pongo2.New())
	tests := []struct {
		name, src string
		want      string // the error's text with x supplied
		missing   bool   // the same position as the error without x
	}{
		{name: "a.hbs", src: "<message role=\"user\">\nab {{x}}</message>", missing: true,
			want: `a.hbs:2:6: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "each.hbs", src: "<message role=\"user\">\n{{#each x}}\n  {{this}}{{/each}}</message>",
			want: `each.hbs:3:5: variable "this" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "with.hbs", src: "<message role=\"user\">{{y}}\n{{#with x}}{{a}} {{self}}{{/with}}</message>",
			want: `with.hbs:2:20: variable "self" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "a.j2", src: "<message role=\"user\">\nab {{ x }}</message>", missing: true,
			want: `a.j2:2:7: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "loop.j2", src: "<message role=\"user\">\n{% for k in x %}{{ k }}{% endfor %}</message>", missing: true,
			want: `loop.j2:2:13: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "if.pongo2", src: "<message role=\"user\">\n{% if x %}{{ x }}{% endif %}</message>",
			want: `if.pongo2:2:7: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "if.j2", src: "<message role=\"user\">\n{% if x %}{{ x }}{% endif %}</message>",
			want: `if.j2:2:7: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "default.j2", src: "<message role=\"user\">\n{{ x|default('') }}</message>",
			want: `default.j2:2:4: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "if.tmpl", src: "<message role=\"user\">\n{{if .x}}{{.x}}{{end}}</message>",
			want: `if.tmpl:2:6: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "a.tmpl", src: "<message role=\"user\">\nab {{.x}}</message>", missing: true,
			want: `a.tmpl:2:6: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
		{name: "a.pongo2", src: "<message role=\"user\">\nab {{ x }}</message>", missing: true,
			want: `a.pongo2:2:7: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("", tc.name, tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"x": cyc, "y": "y"})
			var de *engine.DepthError
			require.True(t, errors.As(err, &de), "%v", err)
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.EqualError(t, err, tc.want)
			if tc.missing {
				_, merr := tpl.Messages(context.Background(), map[string]any{"y": "y"})
				var me *engine.Error
				require.True(t, errors.As(merr, &me), "%v", merr)
				assert.Equal(t, [2]int{me.Line, me.Col}, [2]int{ee.Line, ee.Col}, "missing: %v", merr)
			}
		})
	}
	tpl, err := set.Parse("", "d.hbs", "<message role=\"user\">\n  {{@auth}}</message>")
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil, engine.Data(map[string]any{"auth": cyc}))
	var de *engine.DepthError
	require.True(t, errors.As(err, &de), "%v", err)
	assert.EqualError(t, err, `d.hbs:2:6: variable "@auth" nests more than 1000 maps and lists deep (a map or list that holds itself?)`)
}
