package gotmpl_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
)

type callInner struct{ F func() string }

type callHolder struct {
	Name string
	Get  func() string
	In   callInner
	Ptr  *callInner
}

// maker returns closures of one function literal, which share their code.
func maker(s string) func() string {
	return func() string { panic("made " + s) }
}

func callVars() map[string]any {
	return map[string]any{
		"p":      &callHolder{Name: "ada", Get: func() string { panic("pget") }, In: callInner{F: func() string { panic("inF") }}, Ptr: &callInner{F: func() string { panic("ptrF") }}},
		"v":      callHolder{Get: func() string { return "got" }, In: callInner{F: func() string { panic("vinF") }}},
		"typed":  map[string]callHolder{"k": {Get: func() string { panic("typedGet") }}},
		"list":   []callHolder{{Get: func() string { panic("listGet") }}},
		"ok":     func(a, b string) string { return a + b },
		"two":    func() (int, int) { return 1, 2 },
		"err":    func() (string, error) { return "", errors.New("own error") },
		"epan":   func() string { panic(errors.New("an error value")) },
		"makers": &struct{ A, B func() string }{maker("a"), maker("b")},
		"nilf":   (func() string)(nil),
	}
}

// TestCallPanicNamed: a function of the data that panics when the
// template calls it with text/template's call is a *driver.PanicError
// naming it by its field or key, at any depth: a pointer's struct field, a
// struct in a struct, in a caller's typed map or list. text/template's own
// call recovered it as "error calling call: pget", no *PanicError, no name;
// fillNil's copies named only a struct value's own fields.
func TestCallPanicNamed(t *testing.T) {
	tests := []struct{ src, want string }{
		{"{{call .p.Get}}", `t:1:3: calling "Get": panic: pget`},
		{"{{call .p.In.F}}", `t:1:3: calling "F": panic: inF`},
		{"{{call .p.Ptr.F}}", `t:1:3: calling "F": panic: ptrF`},
		{"{{.v.Name}}{{call .v.In.F}}", `t:1:14: calling "F": panic: vinF`},
		{"{{call .typed.k.Get}}", `t:1:3: calling "Get": panic: typedGet`},
		{"{{call (index .list 0).Get}}", `t:1:3: calling "Get": panic: listGet`},
		{"{{.p.Get | call}}", `t:1:12: calling "Get": panic: pget`},
		{"{{call .epan}}", `t:1:3: calling "epan": panic: an error value`},
		{"{{call .makers.B}}", `t:1:3: calling "B": panic: made b`},
		{"{{call .makers.A}}", `t:1:3: calling "A": panic: made a`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := render(t, tt.src, callVars())
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var pe *driver.PanicError
			assert.ErrorAs(t, err, &pe)
			var ee *engine.Error
			assert.ErrorAs(t, err, &ee)
		})
	}
}

// TestCallLikeTextTemplate: rolemark's call (which replaces
// text/template's to name a panicking function) renders what
// text/template's renders and fails with its message, naming the callee
// as the template wrote it, in a partial's definition too.
func TestCallLikeTextTemplate(t *testing.T) {
	tests := []string{
		"{{call .ok `a` `b`}}",
		"{{call .v.Get}}",
		"{{`b` | call .ok `a`}}",
		"{{call .ok `a`}}",
		"{{call .ok `a` `b` `c`}}",
		"{{call .ok 1 `b`}}",
		"{{call .ok nil `b`}}",
		"{{call .two}}",
		"{{call .err}}",
		"{{call .p.Name}}",
		"{{call nil}}",
		// a nil function of the data is text/template's error, not a
		// *PanicError naming "call's function"
		"{{call .nilf}}",
		"{{call}}",
		"{{1 | call}}",
		"{{.v.Get | call}}",
		"{{if true}}x{{else}}{{end}}{{range $i, $x := .list}}{{call $x.Name}}{{end}}",
		"{{define \"d\"}}{{call .ok}}{{end}}{{template \"d\" .}}",
		"{{with .p}}{{call .Name}}{{end}}",
		"{{if false}}{{else if true}}{{call .ok `a`}}{{end}}",
		"{{(call .ok `a` `b`) | printf \"%s!\"}}",
	}
	for _, src := range tests {
		t.Run(src, func(t *testing.T) {
			var want bytes.Buffer
			wantErr := template.Must(template.New("t").Option("missingkey=error").Parse(src)).Execute(&want, callVars())
			got, err := render(t, src, callVars())
			if wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, want.String(), got)
				return
			}
			require.Error(t, err)
			// text/template's message after its position
			_, msg, _ := strings.Cut(wantErr.Error(), ": executing")
			assert.Equal(t, "executing"+msg, err.Error()[strings.Index(err.Error(), "executing"):])
		})
	}
}
