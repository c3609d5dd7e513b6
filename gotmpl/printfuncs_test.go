package gotmpl_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// TestPrintFuncsCheckTheirArguments: print, printf and println format
// with fmt, which wrote the address of a channel or pointer inside a list
// a template printed through them; each argument is now checked as a
// printed value is (driver.CheckPrint), and the error stands at the action.
func TestPrintFuncsCheckTheirArguments(t *testing.T) {
	n := 1
	for _, src := range []string{`{{print .x}}`, `{{printf "%v" .x}}`, `{{println "a" .x}}`} {
		t.Run(src, func(t *testing.T) {
			tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "<message role=\"user\">\nhi "+src+"</message>")
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"x": []any{&n}})
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, 2, ee.Line, "%v", err)
			var ue *engine.UnprintableError
			assert.True(t, errors.As(err, &ue), "%v", err)
			assert.Equal(t, "cannot print a value of type *int", ee.Err.Error())
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": []any{1, "b"}})
			require.NoError(t, err)
			assert.Contains(t, msgs[0].Text(), "1 b")
		})
	}
}

// TestCheckedCopyConcurrent: renders of data that is not JSON's take a
// copy of the template built at the first of them (sync.Once); renders
// at once, of both kinds of data, share it safely (run with -race).
func TestCheckedCopyConcurrent(t *testing.T) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "<message role=\"user\">{{.x}}</message>")
	require.NoError(t, err)
	type point struct{ X, Y int }
	done := make(chan struct{})
	for i := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			var x any = "plain"
			want := "plain"
			if i%2 == 0 {
				x, want = point{1, 2}, "{1 2}"
			}
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": x})
			if assert.NoError(t, err) {
				assert.Equal(t, want, msgs[0].Text())
			}
		}()
	}
	for range 8 {
		<-done
	}
}
