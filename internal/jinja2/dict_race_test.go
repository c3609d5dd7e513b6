package jinja2

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDictSharedByRenders: a dict of the render's values is read by
// renders on many goroutines at once, so reading it must not change it
// (go test -race): a dict of nine keys, or a copy, has no index until
// something builds one.
func TestDictSharedByRenders(t *testing.T) {
	tmpl, err := New().Parse("t", "{{ d.k7 }}{{ d['k0'] }}{{ d[8] }}{{ c[8] }}")
	require.NoError(t, err)
	d := NewDict(9)
	for i := range 8 {
		d.SetStr("k"+istr(i), IntV(int64(i)))
	}
	d.Set(IntV(8), IntV(8))
	vars := map[string]Value{"d": DictV(d), "c": DictV(d.copyDict())}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				out, err := tmpl.Render(context.Background(), vars)
				require.NoError(t, err)
				require.Equal(t, "7088", out)
			}
		}()
	}
	wg.Wait()
}
