package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

type withPointer struct{ P *int }

// TestNestedUnprintableIsAnError: a value whose text fmt would write as an
// address (a channel, a function, an unsafe.Pointer, a pointer below the
// top) nested at any depth in a map, list or struct that a template prints
// is an error at the print, with the same text in every engine; gotmpl,
// handlebars and pongo2 refused one only at the top and printed
// "map[a:0xc000…]" below it.
func TestNestedUnprintableIsAnError(t *testing.T) {
	set := engine.NewSet(handlebars.New(), pongo2.New(), gotmpl.New())
	templates := []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{x}}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ x }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{.x}}</message>"},
	}
	n := 3
	ch := make(chan int)
	values := []struct {
		name string
		x    any
		typ  string
	}{
		{"chan", ch, "chan int"},
		{"chan in list", []any{ch}, "chan int"},
		{"chan in map", map[string]any{"a": ch}, "chan int"},
		{"chan deep", map[string]any{"a": []any{map[string]any{"b": ch}}}, "chan int"},
		{"func in map", map[string]any{"a": func() {}}, "func()"},
		{"unsafe.Pointer in list", []any{unsafe.Pointer(&n)}, "unsafe.Pointer"},
		{"pointer in list", []any{&n}, "*int"},
		{"pointer in map", map[string]any{"a": &n}, "*int"},
		{"pointer in struct", withPointer{P: &n}, "*int"},
		{"typed map of chan", map[string]chan int{"a": ch}, "chan int"},
	}
	for _, tt := range templates {
		tpl, err := set.Parse(tt.engine, tt.name, tt.src)
		require.NoError(t, err)
		for _, v := range values {
			t.Run(tt.engine+"/"+v.name, func(t *testing.T) {
				msgs, err := tpl.Messages(context.Background(), map[string]any{"x": v.x})
				require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
				var ee *engine.Error
				require.True(t, errors.As(err, &ee), "%v", err)
				assert.Equal(t, tt.name, ee.Template)
				assert.Equal(t, 2, ee.Line, "%v", err)
				assert.Positive(t, ee.Col, "%v", err)
				var ue *engine.UnprintableError
				require.True(t, errors.As(err, &ue), "%v", err)
				assert.Equal(t, v.typ, ue.Type.String())
				assert.Equal(t, "cannot print a value of type "+v.typ, ee.Err.Error())
			})
		}
	}
}

// TestUnprintableInACycle: a list that holds itself and a channel fails at
// the print (as too deep or as unprintable) rather than hanging.
func TestUnprintableInACycle(t *testing.T) {
	set := engine.NewSet(handlebars.New(), pongo2.New(), gotmpl.New())
	cyclic := []any{make(chan int), nil}
	cyclic[1] = cyclic
	for _, tt := range []struct{ engine, name, src string }{
		{"handlebars", "t.hbs", "<message role=\"user\">\nhi {{x}}</message>"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\nhi {{ x }}</message>"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\nhi {{.x}}</message>"},
	} {
		t.Run(tt.engine, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, tt.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"x": cyclic})
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, 2, ee.Line, "%v", err)
			var ue *engine.UnprintableError
			var de *engine.DepthError
			assert.True(t, errors.As(err, &ue) || errors.As(err, &de), "%v", err)
		})
	}
}

// TestNestedPrintablesStillPrint: the check refuses only what fmt would
// print as an address; what it prints by its contents still prints.
func TestNestedPrintablesStillPrint(t *testing.T) {
	set := engine.NewSet(handlebars.New(), pongo2.New(), gotmpl.New())
	n := 3
	x := map[string]any{"n": &n} // a pointer at the top of the value prints what it points to
	for _, tt := range []struct{ engine, name, src, want string }{
		// raymond prints a list's items one after the other
		{"handlebars", "t.hbs", "<message role=\"user\">\n{{x.n}} {{y}} {{z}}</message>", "3 1a2 {<nil>}"},
		{"pongo2", "t.pongo2", "<message role=\"user\">\n{{ x.n }} {{ y }} {{ z }}</message>", "3 [1 a [2]] {<nil>}"},
		{"gotmpl", "t.tmpl", "<message role=\"user\">\n{{.x.n}} {{.y}} {{.z}}</message>", "3 [1 a [2]] {<nil>}"},
	} {
		t.Run(tt.engine, func(t *testing.T) {
			tpl, err := set.Parse(tt.engine, tt.name, tt.src)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), map[string]any{
				"x": x, "y": []any{1, "a", []int{2}}, "z": &withPointer{},
			})
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			assert.Equal(t, tt.want, msgs[0].Text())
		})
	}
}

// TestJinjaUnprintableIsAnError: a channel or an unsafe.Pointer in a
// variable of a jinja template is the other engines' *UnprintableError,
// at the variable's first use (jinja converts the data before it renders,
// and a print has no error path): jinja printed "<chan int>" for one in
// []any or map[string]any and None for one in a typed map or slice, or
// for an unsafe.Pointer.
func TestJinjaUnprintableIsAnError(t *testing.T) {
	set := engine.NewSet(jinja.New())
	tpl, err := set.Parse("jinja", "t.j2", "<message role=\"user\">\nhi {{ x }}</message>")
	require.NoError(t, err)
	n := 3
	ch := make(chan int)
	for _, v := range []struct {
		name string
		x    any
		typ  string
	}{
		{"chan", ch, "chan int"},
		{"chan in list", []any{ch}, "chan int"},
		{"chan in map", map[string]any{"a": ch}, "chan int"},
		{"chan deep", map[string]any{"a": []any{map[string]any{"b": ch}}}, "chan int"},
		{"typed map of chan", map[string]chan int{"a": ch}, "chan int"},
		{"typed list of chan", []chan int{ch}, "chan int"},
		{"typed list in list", []any{[]map[string]chan int{{"a": ch}}}, "chan int"},
		{"unsafe.Pointer", unsafe.Pointer(&n), "unsafe.Pointer"},
		{"unsafe.Pointer in list", []any{unsafe.Pointer(&n)}, "unsafe.Pointer"},
		{"unsafe.Pointer in typed map", map[string]unsafe.Pointer{"a": unsafe.Pointer(&n)}, "unsafe.Pointer"},
		// a struct's fields are its attributes, read when the template
		// reads them (as None, for a channel): the same error
		{"chan in struct field", withChan{C: ch}, "chan int"},
		{"chan in pointed-to struct", &withChan{C: ch}, "chan int"},
		{"chan in struct in list", []any{withChan{C: ch}}, "chan int"},
		{"chan in struct in typed map", map[string]withChan{"a": {C: ch}}, "chan int"},
		{"chan in nested struct", withInner{In: &withChan{C: ch}}, "chan int"},
		{"chan in struct's any", withAny{A: map[string]any{"b": ch}}, "chan int"},
		{"unsafe.Pointer in struct field", withUnsafe{P: unsafe.Pointer(&n)}, "unsafe.Pointer"},
	} {
		t.Run(v.name, func(t *testing.T) {
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": v.x})
			require.Error(t, err, "rendered %q", fmt.Sprint(msgs))
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, "t.j2", ee.Template)
			assert.Equal(t, [2]int{2, 7}, [2]int{ee.Line, ee.Col}, "%v", err)
			var ue *engine.UnprintableError
			require.True(t, errors.As(err, &ue), "%v", err)
			assert.Equal(t, v.typ, ue.Type.String())
			assert.Equal(t, "cannot print a value of type "+v.typ, ee.Err.Error())
		})
	}
	// a nil channel is None, as before; a pointer in a typed list prints
	// what it points to
	msgs, err := tpl.Messages(context.Background(), map[string]any{"x": []any{(chan int)(nil), []*int{&n}}})
	require.NoError(t, err)
	assert.Equal(t, "hi [None, [3]]", msgs[0].Text())
	// a struct whose fields hold no channel renders, one that holds
	// itself too, and a field the template cannot read is not looked at
	self := &withSelf{Name: "ada"}
	self.Next = self
	// a list that holds itself twice, in a struct's field, is walked
	// once: too deep, not 2**1000 paths
	twice := []any{nil, nil}
	twice[0], twice[1] = twice, twice
	_, err = tpl.Messages(context.Background(), map[string]any{"x": withAny{A: twice}})
	var de *engine.DepthError
	require.ErrorAs(t, err, &de)
	tpl, err = set.Parse("jinja", "t.j2", "<message role=\"user\">\nhi {{ x.Name }} {{ x.Next.Name }} {{ y.N }}</message>")
	require.NoError(t, err)
	msgs, err = tpl.Messages(context.Background(), map[string]any{"x": self, "y": withHidden{N: 1, C: ch}})
	require.NoError(t, err)
	assert.Equal(t, "hi ada ada 1", msgs[0].Text())
}

type (
	withChan   struct{ C chan int }
	withInner  struct{ In *withChan }
	withAny    struct{ A any }
	withUnsafe struct{ P unsafe.Pointer }
	withSelf   struct {
		Name string
		Next *withSelf
	}
	withHidden struct {
		N int
		C chan int `json:"-"`
	}
)
