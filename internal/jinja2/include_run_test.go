package jinja2

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIncludeDoesNotAllocate: an include runs in a context and a frame
// the render keeps from render to render (it made five objects, 272 bytes,
// which paced the collector: OpenHands' system prompt spent most of its
// render there).
func TestIncludeDoesNotAllocate(t *testing.T) {
	env := moduleEnv(map[string]string{"p": `{% if x %}a{% else %}b{% endif %}[{{ x }}]`})
	tmpl, err := env.Parse("main", `<{% include 'p' %}{% include 'p' %}>`)
	require.NoError(t, err)
	vars := map[string]Value{"x": IntV(1)}
	var buf []byte
	allocs := renderAllocs(t, func() {
		buf, err = tmpl.AppendRender(context.Background(), buf[:0], vars)
	})
	require.NoError(t, err)
	assert.Equal(t, "<a[1]a[1]>", string(buf))
	assert.Zero(t, allocs)
}

// TestIncludeRunsLiveToRenderEnd renders the oracle's include cases, whose
// macro reads the frame of an include that has ended, many times with one
// Template, one after the other and in goroutines at once (run it with
// -race): what an include ran in lives until the render ends, and the
// next render's includes start afresh.
func TestIncludeRunsLiveToRenderEnd(t *testing.T) {
	doc := readOracleFile(t, filepath.Join("testdata", "oracle", "cases", "inplace.json"))
	n := 0
	for i := range doc.Cases {
		c := &doc.Cases[i]
		if !strings.HasPrefix(c.ID, "inplace/include-macro-outlives-include") {
			continue
		}
		n++
		t.Run(c.ID, func(t *testing.T) {
			require.NotNil(t, c.Expect)
			require.NotNil(t, c.Expect.Output)
			want := *c.Expect.Output
			env, err := oracleEnvironment(c.Env, c.Loader)
			require.NoError(t, err)
			tmpl, err := env.Parse("<template>", *c.Template)
			require.NoError(t, err)
			for range 4 {
				got, err := tmpl.Render(context.Background(), nil)
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
			var wg sync.WaitGroup
			outs := make([][]string, 4)
			for g := range outs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range 20 {
						got, err := tmpl.Render(context.Background(), nil)
						if err != nil {
							got = err.Error()
						}
						outs[g] = append(outs[g], got)
					}
				}()
			}
			wg.Wait()
			for _, o := range outs {
				for _, got := range o {
					assert.Equal(t, want, got)
				}
			}
		})
	}
	assert.Equal(t, 2, n)
}
