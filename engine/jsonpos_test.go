package engine_test

import (
	"context"
	"errors"
	"fmt"
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

// TestJSONOfUnencodableValueHasPosition: each engine's json/tojson of a
// value JSON cannot hold (a Go function, a channel, a value that holds
// itself) is an error at the place of the call, found with errors.As,
// whatever layer raises it (handlebars: raymond, which calls a function of
// the data as a helper; jinja: a Go function is a callable, which Python's
// json cannot encode either).
func TestJSONOfUnencodableValueHasPosition(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	type node struct{ Next *node }
	loop := &node{}
	loop.Next = loop
	values := []struct {
		name string
		v    any
	}{
		{"func()", func() {}},
		{"func(int) int", func(int) int { return 0 }},
		{"chan", make(chan int)},
		{"cyclic map", cyclic},
		{"cyclic pointer", loop},
		{"func in a list", []any{func() {}}},
		{"chan in a map", map[string]any{"c": make(chan int)}},
	}
	templates := []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{json v}}</message>"},
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ v|tojson }}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ v|tojson }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{json .v}}</message>"},
	}
	for _, tt := range templates {
		tpl, err := set.Parse(tt.engine, tt.name, tt.src)
		require.NoError(t, err)
		for _, val := range values {
			t.Run(tt.engine+"/"+val.name, func(t *testing.T) {
				msgs, err := tpl.Messages(context.Background(), map[string]any{"v": val.v})
				require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
				var ee *engine.Error
				require.True(t, errors.As(err, &ee), "%v", err)
				assert.Equal(t, 2, ee.Line, "%v", err)
				assert.Positive(t, ee.Col, "%v", err)
				assert.True(t, strings.HasPrefix(err.Error(), tt.name+":2:"), "%v", err)
				// encoding/json's "json: " once (text/template says
				// "error calling json: " before it).
				msg := strings.Replace(err.Error(), "error calling json: ", "", 1)
				assert.NotContains(t, msg, "json: json:")
			})
		}
	}
}

// TestPrintOfChannelHasPosition: printing a channel (alone or in a list)
// is an error at the print in the engines that refuse it (raymond panicked
// with the channel's address and no place; pongo2 printed the address,
// which changes from run to run), and its type in jinja, where a Go value
// with no Python counterpart is an object.
func TestPrintOfChannelHasPosition(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	templates := []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{v}}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ v }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{.v}}</message>"},
		{"jinja", "t.j2", "<message role=\"user\">\nhi {{ v }}</message>"},
	}
	for _, v := range []any{make(chan int), []any{"a", make(chan int)}} {
		for _, tt := range templates {
			if _, list := v.([]any); list && tt.engine == "gotmpl" {
				continue // text/template prints a list with fmt: not yet refused
			}
			t.Run(fmt.Sprintf("%s/%T", tt.engine, v), func(t *testing.T) {
				tpl, err := set.Parse(tt.engine, tt.name, tt.src)
				require.NoError(t, err)
				msgs, err := tpl.Messages(context.Background(), map[string]any{"v": v})
				require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
				var ee *engine.Error
				require.True(t, errors.As(err, &ee), "%v", err)
				assert.Equal(t, 2, ee.Line, "%v", err)
				assert.Positive(t, ee.Col, "%v", err)
				assert.NotContains(t, err.Error(), "0x", "an address")
			})
		}
	}
	tpl, err := set.Parse("jinja", "t.j2", "<message role=\"user\">\nhi {{ f }} {{ f() }}</message>")
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"f": func() {}})
	require.NoError(t, err)
	assert.Equal(t, "hi <function> None", msgs[0].Text()) // f() returns None, printed as Python prints it
}
