package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPartialDirs(t *testing.T) {
	tests := []struct {
		dir, root string
		want      []string
	}{
		{dir: "p/a/b", root: "p", want: []string{"p/a/b", "p/a", "p"}},
		{dir: "p/a/b", root: ".", want: []string{"p/a/b", "p/a", "p", "."}},
		{dir: "p/a/b", root: "", want: []string{"p/a/b"}},
		{dir: "p", root: "p", want: []string{"p"}},
		{dir: ".", root: ".", want: []string{"."}},
		{dir: "", root: "", want: []string{"."}},
		{dir: "a", root: "", want: []string{"a"}},
		{dir: "p/a/", root: "p/", want: []string{"p/a", "p"}},
		// Root is not Dir or above it: Dir only.
		{dir: "p/a", root: "q", want: []string{"p/a"}},
		{dir: "pa/b", root: "p", want: []string{"pa/b"}},
		{dir: "p", root: "p/a", want: []string{"p"}},
		// Never outside the file system.
		{dir: "../p/a", root: ".", want: []string{"../p/a"}},
		{dir: "p/a", root: "..", want: []string{"p/a"}},
		{dir: "/p/a", root: "/", want: []string{"/p/a"}},
	}
	for _, tc := range tests {
		t.Run(tc.dir+" up to "+tc.root, func(t *testing.T) {
			assert.Equal(t, tc.want, partialDirs(tc.dir, tc.root))
		})
	}
}
