package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Calling a str method of no arguments that builds no new str
// (x.strip(), x|trim) allocates nothing: the method is looked up once
// per call site, and its name for errors built once.
func TestStrMethodCallsDoNotAllocate(t *testing.T) {
	for _, opts := range [][]Option{nil, {Sandbox()}} {
		tpl, err := New(opts...).Parse("t", "{{ s.strip() }}|{{ s|trim }}|{{ s.rstrip() }}|{{ s.lstrip() }}|{{ s.isspace() }}")
		require.NoError(t, err)
		vars := map[string]Value{"s": StrV(" ab ")}
		ctx := context.Background()
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		assert.Equal(t, "ab|ab| ab|ab |False", string(buf))
		allocs := testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
		assert.Zero(t, allocs)
	}
}
