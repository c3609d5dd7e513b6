package chattemplate

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// TestRenderStateReused: a rendering's pooled state starts as a new one
// would, whatever the rendering before it was given (tools, variables,
// the generation prompt, allowed special tokens) or how it ended (a
// template's refusal, a special token); once back in the pool it holds
// none of the caller's data but what the Template holds itself: the
// kept conversation's list and a tool list of its memo.
func TestRenderStateReused(t *testing.T) {
	tpl, err := New("{{ bos_token }}{% for m in messages %}{{ m.role }}:{{ m.content }};{% endfor %}"+
		"{% if tools %}tools={{ tools|map(attribute='function.name')|join(',') }};{% endif %}"+
		"{% if x is defined %}x={{ x }};{% endif %}{% if add_generation_prompt %}>{% endif %}"+
		"{% if messages[0].content == 'no' %}{{ raise_exception('no') }}{% endif %}",
		Token("bos_token", "<s>"))
	require.NoError(t, err)
	ctx := context.Background()
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	tools := []chat.Tool{{Name: "f"}}
	steps := []struct {
		msgs []chat.Message
		opts []format.Option
		want string
		err  bool
	}{
		{msgs, []format.Option{format.Tools(tools...), format.Vars(map[string]any{"x": 1}), format.GenerationPrompt()}, "<s>user:hi;tools=f;x=1;>", false},
		{msgs, nil, "<s>user:hi;", false},
		{[]chat.Message{chat.Text(chat.RoleUser, "<s>")}, []format.Option{format.AllowSpecialTokens()}, "<s>user:<s>;", false},
		{[]chat.Message{chat.Text(chat.RoleUser, "<s>")}, nil, "", true},
		{[]chat.Message{chat.Text(chat.RoleUser, "no")}, []format.Option{format.Vars(map[string]any{"x": 2})}, "", true},
		{msgs, []format.Option{format.Tools(tools...)}, "<s>user:hi;tools=f;", false},
		{msgs, nil, "<s>user:hi;", false},
	}
	for round := range 2 {
		for i, s := range steps {
			got, err := tpl.Render(ctx, s.msgs, s.opts...)
			if s.err {
				assert.Error(t, err, "round %d step %d", round, i)
				continue
			}
			require.NoError(t, err, "round %d step %d", round, i)
			assert.Equal(t, s.want, got, "round %d step %d", round, i)
		}
	}
	rd := tpl.getData()
	assert.Zero(t, rd.opts)
	if rd.args != nil { // pos itself, kept: nothing pos does not hold
		assert.Same(t, &rd.pos[0], &rd.args[0])
		assert.Len(t, rd.args, len(rd.pos))
	}
	assert.Empty(t, rd.vars)
	kc := tpl.conv.Load()
	require.NotNil(t, kc)
	require.Same(t, kc, rd.heldConv)
	assert.Equal(t, kc.list, rd.pos[argMessages])
	assert.Nil(t, rd.heldTools)
	assert.Equal(t, jinja2.NoneV(), rd.pos[argTools])
	assert.Equal(t, jinja2.BoolV(false), rd.pos[argAddGenerationPrompt])
	assert.Equal(t, tpl.fixed[argDocuments:], rd.pos[argDocuments:])
	tpl.putData(rd)

	// another conversation kept (at its second rendering, found kept at
	// its third): the state lets the first one go as its rendering ends
	other := []chat.Message{chat.Text(chat.RoleUser, "bye")}
	for range 3 {
		got, err := tpl.Render(ctx, other, format.Tools(tools...))
		require.NoError(t, err)
		assert.Equal(t, "<s>user:bye;tools=f;", got)
	}
	rd = tpl.getData()
	require.NotSame(t, kc, tpl.conv.Load())
	assert.Same(t, tpl.conv.Load(), rd.heldConv)
	te := tpl.memo.find(tools)
	require.NotNil(t, te)
	assert.Same(t, te, rd.heldTools)
	assert.Equal(t, te.val, rd.pos[argTools])
	tpl.conv.Store(nil)
	tpl.memo.tools[0].Store(nil)
	tpl.memo.tools[1].Store(nil)
	rd.reset(tpl)
	assert.Nil(t, rd.heldConv)
	assert.Nil(t, rd.heldTools)
	assert.Equal(t, jinja2.Value{}, rd.pos[argMessages])
	assert.Equal(t, jinja2.NoneV(), rd.pos[argTools])
}

// TestRenderStateConcurrent renders with different options from many
// goroutines on one Template (go test -race checks the pooled states):
// each rendering sees its own options only, whether it returns a string
// (Render) or appends to the goroutine's own buffer (AppendRender, every
// third rendering).
func TestRenderStateConcurrent(t *testing.T) {
	tpl, err := New("{% for m in messages %}{{ m.content }};{% endfor %}{{ x|default('-') }}" +
		"{% if tools %}{{ tools|length }}{% endif %}{% if add_generation_prompt %}>{% endif %}")
	require.NoError(t, err)
	msgs := []chat.Message{chat.Text(chat.RoleUser, "a")}
	tools := []chat.Tool{{Name: "f"}, {Name: "g"}}
	cases := []struct {
		opts []format.Option
		want string
	}{
		{nil, "a;-"},
		{[]format.Option{format.GenerationPrompt()}, "a;->"},
		{[]format.Option{format.Tools(tools...)}, "a;-2"},
		{[]format.Option{format.Vars(map[string]any{"x": "v"})}, "a;v"},
	}
	done := make(chan error)
	for g := range 8 {
		go func() {
			var buf []byte
			for i := range 200 {
				c := cases[(g+i)%len(cases)]
				var got string
				var err error
				if i%3 == 0 {
					buf, err = tpl.AppendRender(context.Background(), buf[:0], msgs, c.opts...)
					got = string(buf)
				} else {
					got, err = tpl.Render(context.Background(), msgs, c.opts...)
				}
				if err == nil && got != c.want {
					err = errors.New(got + " for " + c.want)
				}
				if err != nil {
					done <- fmt.Errorf("goroutine %d, rendering %d: %w", g, i, err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		assert.NoError(t, <-done)
	}
}

// TestRenderStateHot: the Template's own state goes to one rendering at a
// time (another takes one of the pool's or a new one), comes back to it,
// and is let go once it grew large, a new one made in its place.
func TestRenderStateHot(t *testing.T) {
	tpl, err := New("{{ messages|length }}")
	require.NoError(t, err)
	a := tpl.getData()
	require.Same(t, a, tpl.hot.Load())
	require.True(t, tpl.busy.Load())
	b := tpl.getData()
	require.NotSame(t, a, b)
	tpl.putData(b)
	assert.Same(t, a, tpl.hot.Load(), "a state of the pool does not take the slot")
	tpl.putData(a)
	assert.False(t, tpl.busy.Load())
	require.Same(t, a, tpl.getData())
	a.dicts = make([]jinja2.Dict, 0, 1<<9)
	tpl.putData(a)
	assert.Nil(t, tpl.hot.Load())
	assert.False(t, tpl.busy.Load())
	c := tpl.getData()
	assert.NotSame(t, a, c)
	assert.Same(t, c, tpl.hot.Load())
	tpl.putData(c)
	got, err := tpl.Render(context.Background(), []chat.Message{chat.Text(chat.RoleUser, "a")})
	require.NoError(t, err)
	assert.Equal(t, "1", got)
}
