package preview

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkVersion measures one scan of a directory of 500 prompts in 25
// subdirectories: what each poll of the page costs the server.
func BenchmarkVersion(b *testing.B) {
	files := map[string]string{}
	for i := 0; i < 500; i++ {
		files[fmt.Sprintf("d%02d/p%03d.hbs", i%25, i)] = "{{role \"user\"}}hello {{name}}"
	}
	dir := writeDir(b, files)
	fsys, err := newDirFS(dir)
	require.NoError(b, err)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		version(fsys)
	}
}
