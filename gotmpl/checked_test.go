package gotmpl_test

import (
	"context"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// TestCheckedCopyReadsNoFileAgain: the copy of a template that a render
// of data other than JSON's takes (its prints check what they print) is
// made of the sources the template was compiled from; it read its
// partials from the file system again at its first render, so a partial
// edited or removed since then rendered differently, or not at all, for
// data holding a struct than for plain data.
func TestCheckedCopyReadsNoFileAgain(t *testing.T) {
	fsys := fstest.MapFS{
		"p/main.tmpl":   {Data: []byte(`{{role "user"}}{{template "rules" .}} {{.x}}`)},
		"p/_rules.tmpl": {Data: []byte(`old`)},
	}
	tpl, err := engine.NewSet(gotmpl.New()).ParseFS(fsys, "p/main.tmpl")
	require.NoError(t, err)
	fsys["p/_rules.tmpl"] = &fstest.MapFile{Data: []byte(`new`)}
	for _, x := range []any{"s", stringer{"s"}} {
		msgs, err := tpl.Messages(context.Background(), map[string]any{"x": x})
		require.NoError(t, err)
		require.Len(t, msgs, 1)
		assert.Equal(t, "old s", msgs[0].Text(), "%T", x)
	}
	fsys = fstest.MapFS{
		"p/main.tmpl":   {Data: []byte(`{{role "user"}}{{template "rules" .}} {{.x}}`)},
		"p/_rules.tmpl": {Data: []byte(`old`)},
	}
	tpl, err = engine.NewSet(gotmpl.New()).ParseFS(fsys, "p/main.tmpl")
	require.NoError(t, err)
	delete(fsys, "p/_rules.tmpl")
	msgs, err := tpl.Messages(context.Background(), map[string]any{"x": stringer{"s"}})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	assert.Equal(t, "old s", msgs[0].Text())
}

// TestCheckedCopyConcurrentFirstUse: renders that take the checking copy
// at once, before any made it, share one copy (run with -race).
func TestCheckedCopyConcurrentFirstUse(t *testing.T) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "{{role \"user\"}}{{.x}} {{range .l}}{{.}}{{end}}")
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": stringer{"a"}, "l": []any{1, "b"}})
			if assert.NoError(t, err) && assert.Len(t, msgs, 1) {
				assert.Equal(t, "a 1b", msgs[0].Text())
			}
		}()
	}
	wg.Wait()
}
