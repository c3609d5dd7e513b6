package driver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

func TestCompileSkeletonRefusesHistory(t *testing.T) {
	_, ok := driver.CompileSkeleton([]string{`<message role="user">`, `</message>` + driver.HistoryMarker}, nil)
	require.False(t, ok)
	_, ok = driver.CompileSkeleton([]string{`<message role="user">`, `</message>`}, nil)
	require.True(t, ok)
}

func TestMemoryMessages(t *testing.T) {
	sk, ok := driver.CompileSkeleton([]string{`<message role="system">Hi </message><message role="user">`, `</message>`}, nil)
	require.True(t, ok)
	var mem driver.Memory
	first, err := mem.Messages(sk, []string{"one"})
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "Hi"), chat.Text(chat.RoleUser, "one")}, first)
	// The next render writes over the first's messages and text.
	second, err := mem.Messages(sk, []string{"two"})
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "Hi"), chat.Text(chat.RoleUser, "two")}, second)
	require.Equal(t, "two", first[1].Content[0].Text)
	require.Zero(t, testing.AllocsPerRun(100, func() { _, _ = mem.Messages(sk, []string{"three"}) }))
	// A longer text grows the memory.
	long := strings.Repeat("x", 1000)
	msgs, err := mem.Messages(sk, []string{long})
	require.NoError(t, err)
	require.Equal(t, long, msgs[1].Content[0].Text)
	require.GreaterOrEqual(t, cap(mem.Text), len(long))
	// A large text is kept for the renders of its size.
	_, _ = mem.Messages(sk, []string{strings.Repeat("x", 600<<10)})
	big := []string{strings.Repeat("y", 700<<10)}
	_, _ = mem.Messages(sk, big)
	require.Zero(t, testing.AllocsPerRun(10, func() { _, _ = mem.Messages(sk, big) }))
	// Too large a text is not kept.
	_, _ = mem.Messages(sk, []string{strings.Repeat("z", 2<<20)})
	require.LessOrEqual(t, cap(mem.Text), 1<<20)
	// Without memory, every render's messages are their own.
	var none *driver.Memory
	a, err := none.Messages(sk, []string{"a"})
	require.NoError(t, err)
	b, err := none.Messages(sk, []string{"b"})
	require.NoError(t, err)
	require.Equal(t, "a", a[1].Content[0].Text)
	require.Equal(t, "b", b[1].Content[0].Text)
	_, err = mem.Messages(sk, nil)
	require.Error(t, err)
}

func TestHoleVars(t *testing.T) {
	vars, holes := driver.HoleVars([]string{"a", "b", "a", "c", "b"})
	require.Equal(t, map[string]any{"a": roleparse.Hole(0), "b": roleparse.Hole(1), "c": roleparse.Hole(2)}, vars)
	require.Equal(t, []int{0, 1, 0, 2, 1}, holes)
	vars, holes = driver.HoleVars(nil)
	require.Empty(t, vars)
	require.Empty(t, holes)
}

func TestSkeletonFromRender(t *testing.T) {
	tests := []struct {
		name     string
		rendered string
		holes    []int
		ok       bool
	}{
		{"in order", `<message role="user">` + roleparse.Hole(0) + ` and ` + roleparse.Hole(1) + `</message>`, []int{0, 1}, true},
		{"out of order", `<message role="user">` + roleparse.Hole(1) + ` and ` + roleparse.Hole(0) + `</message>`, []int{0, 1}, false},
		{"hole missing", `<message role="user">` + roleparse.Hole(0) + `</message>`, []int{0, 1}, false},
		{"history", `<message role="user">` + roleparse.Hole(0) + `</message>` + driver.HistoryMarker, []int{0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sk, ok := driver.SkeletonFromRender(tt.rendered, tt.holes, nil)
			require.Equal(t, tt.ok, ok)
			if ok {
				require.Equal(t, len(tt.holes), sk.Holes())
			}
		})
	}
}

func TestSkeletonVarMessages(t *testing.T) {
	sk, ok := driver.SkeletonFromRender(`<message role="user">`+roleparse.Hole(0)+` `+roleparse.Hole(1)+` `+roleparse.Hole(0)+`</message>`, []int{0, 1, 0}, nil)
	require.True(t, ok)
	names := []string{"a", "b", "a"}
	str := func(x any) (string, bool) { s, ok := x.(string); return s, ok }
	tests := []struct {
		name string
		r    *driver.Request
		want []chat.Message
		ok   bool
	}{
		{"values", &driver.Request{Vars: map[string]any{"a": "x", "b": "y"}}, []chat.Message{chat.Text(chat.RoleUser, "x y x")}, true},
		{"missing", &driver.Request{Vars: map[string]any{"a": "x"}}, nil, false},
		{"refused", &driver.Request{Vars: map[string]any{"a": "x", "b": 1}}, nil, false},
		{"nil request", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, ok, err := driver.SkeletonVarMessages(context.Background(), tt.r, sk, names, str)
			require.NoError(t, err)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.want, msgs)
		})
	}
	// a string prints without value, as it is; nil is the engine's to
	// print (the jinja engine's None)
	refuse := func(any) (string, bool) { return "", false }
	msgs, ok, err := driver.SkeletonVarMessages(context.Background(), &driver.Request{Vars: map[string]any{"a": "x", "b": nil}}, sk, names, refuse)
	require.NoError(t, err)
	require.False(t, ok)
	require.Nil(t, msgs)
	none := func(x any) (string, bool) { return "None", x == nil }
	msgs, ok, err = driver.SkeletonVarMessages(context.Background(), &driver.Request{Vars: map[string]any{"a": "x", "b": nil}}, sk, names, none)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "x None x")}, msgs)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, ok, err = driver.SkeletonVarMessages(ctx, &driver.Request{}, sk, names, str)
	require.True(t, ok)
	require.ErrorIs(t, err, context.Canceled)
}

func TestRenderVarSkeleton(t *testing.T) {
	render := func(vars map[string]any) (string, error) {
		return `<message role="user">` + vars["a"].(string) + ` ` + vars["b"].(string) + ` ` + vars["a"].(string) + `</message>`, nil
	}
	v := driver.RenderVarSkeleton([]string{"a", "b", "a"}, render, nil)
	require.NotNil(t, v)
	str := func(x any) (string, bool) { s, ok := x.(string); return s, ok }
	msgs, ok, err := v.Messages(context.Background(), &driver.Request{Vars: map[string]any{"a": "x", "b": "y"}}, str)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "x y x")}, msgs)

	// a failed render, and a render whose holes are out of order: no skeleton
	require.Nil(t, driver.RenderVarSkeleton([]string{"a"}, func(map[string]any) (string, error) { return "", context.Canceled }, nil))
	require.Nil(t, driver.RenderVarSkeleton([]string{"a", "b"}, func(vars map[string]any) (string, error) {
		return vars["b"].(string) + vars["a"].(string), nil
	}, nil))

	// a nil VarSkeleton is a template without the path
	var none *driver.VarSkeleton
	msgs, ok, err = none.Messages(context.Background(), &driver.Request{}, str)
	require.NoError(t, err)
	require.False(t, ok)
	require.Nil(t, msgs)
}
