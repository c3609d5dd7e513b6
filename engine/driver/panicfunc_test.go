package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPanickingFunc: the name of the function of the data whose panic is
// being recovered, found from its code on the stack through maps, lists,
// pointers and struct fields; a value that holds itself ends the walk, and
// a panic of no function of the data names none.
func TestPanickingFunc(t *testing.T) {
	type holder struct {
		Run  func()
		Skip func()
	}
	cyc := map[string]any{}
	cyc["self"] = cyc
	vars := map[string]any{
		"cyc":  cyc,
		"h":    &holder{Run: func() { panic("run") }},
		"list": []any{nil, map[string]any{"deep": func() { panic("deep") }}},
		"fs":   []func(){func() { panic("fs") }},
		"text": []string{"a", "b"},
	}
	recovered := func(call func()) (name string) {
		defer func() {
			if recover() != nil {
				name = PanickingFunc(vars)
			}
		}()
		call()
		return "no panic"
	}
	assert.Equal(t, "Run", recovered(vars["h"].(*holder).Run))
	assert.Equal(t, "deep", recovered(vars["list"].([]any)[1].(map[string]any)["deep"].(func())))
	assert.Equal(t, "fs[0]", recovered(vars["fs"].([]func())[0]))
	assert.Equal(t, "", recovered(func() { panic("not data") }))
}

// TestFuncNamed: a function value is named by where the data holds it,
// through pointers, struct fields, maps and lists; two closures of one
// literal are told apart; a function the data does not hold, or no
// function, names nothing.
func TestFuncNamed(t *testing.T) {
	mk := func() func() { return func() {} }
	a, b := mk(), mk()
	type holder struct{ A, B func() }
	vars := map[string]any{
		"h":    &holder{A: a, B: b},
		"list": []any{map[string]any{"deep": b}},
		"fs":   []func(){a},
	}
	for _, tt := range []struct {
		name string
		fn   any
		want string
	}{
		{"a, in a field and a list", a, "A"},
		{"b, in a field and a map in a list", b, "B"},
		{"not in the data", mk(), ""},
		{"not a function", 3, ""},
		{"a nil function", (func())(nil), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, FuncNamed(vars, tt.fn))
		})
	}
}
