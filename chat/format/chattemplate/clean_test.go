package chattemplate_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// joinsTemplate writes a role between <| and |>, as 088 does, and knows
// <|/tool|> from its own text: a / in the data calls for step 2.
const joinsTemplate = "{{ '<|/tool|>' }}{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}" +
	"{% if add_generation_prompt %}<|assistant|>{% endif %}"

// A kept conversation whose prompt step 2's first test found clean is
// rendered again with the same tools and flags without that test (the
// same prompt, convKept.clean); other tools or flags, or a message
// changed in place, are tested again, and a token the changed data
// makes is refused.
func TestCleanRenderingKept(t *testing.T) {
	tpl, err := chattemplate.New(joinsTemplate)
	require.NoError(t, err)
	ctx := context.Background()
	tools := []chat.Tool{{Name: "tz", Parameters: []byte(`{"type": "object", "properties": {"tz": {"description": "e.g. Europe/Paris"}}}`)}}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "and/or"), chat.Text(chat.RoleAssistant, "ok")}
	step := func(what string, checks, unforgeable uint64, opts ...format.Option) string {
		t.Helper()
		c, u := chattemplate.ForgeChecks(tpl), chattemplate.Unforgeable(tpl)
		out, err := tpl.Render(ctx, msgs, opts...)
		require.NoError(t, err, what)
		assert.Equal(t, checks, chattemplate.ForgeChecks(tpl)-c, "%s: prompts tested", what)
		assert.Equal(t, unforgeable, chattemplate.Unforgeable(tpl)-u, "%s: renderings with no token the data made", what)
		assert.Zero(t, chattemplate.NeutralRenders(tpl), what)
		return out
	}
	want := step("first", 1, 1) // converts and keeps the conversation
	assert.Equal(t, "<|/tool|><|user|>and/or<|assistant|>ok", want)
	assert.Equal(t, want, step("second", 1, 1)) // the kept one, found clean
	assert.Equal(t, want, step("third", 0, 1))
	buf, err := tpl.AppendRender(ctx, nil, msgs)
	require.NoError(t, err)
	assert.Equal(t, want, string(buf))
	assert.Equal(t, want, step("fourth", 0, 1))
	step("generation prompt", 1, 1, format.GenerationPrompt())
	step("generation prompt again", 1, 1, format.GenerationPrompt()) // one set of flags is kept
	step("tools", 1, 1, format.Tools(tools...))
	assert.Equal(t, want, step("as at first", 0, 1))

	// changed in place: the conversation is kept again, and tested
	msgs[1].Content[0].Text = "fine"
	assert.Equal(t, "<|/tool|><|user|>and/or<|assistant|>fine", step("text changed", 1, 1))
	step("text changed, kept", 1, 1)
	step("text changed, clean", 0, 1)
	msgs[1].Role = "/tool"
	_, err = tpl.Render(ctx, msgs)
	var se *format.SpecialTokenError
	require.ErrorAs(t, err, &se, "a role changed in place")
	assert.Equal(t, "<|/tool|>", se.Token)
}

// A template that reads the clock may write another prompt with the same
// data: its prompts are tested at every rendering, and a token the data
// makes only at the second one is refused.
func TestCleanRenderingNotKeptWhenTheClockIsRead(t *testing.T) {
	second := 1
	clock := func() time.Time { return time.Date(2026, 11, 27, 12, 0, second, 0, time.UTC) }
	src := "{{ '<|/tool|>' }}{% for m in messages %}<|{% if strftime_now('%S') == '00' %}{{ m.role }}{% endif %}|>{{ m.content }}{% endfor %}"
	tpl, err := chattemplate.New(src, chattemplate.Clock(clock))
	require.NoError(t, err)
	ctx := context.Background()
	msgs := []chat.Message{chat.Text(chat.RoleUser, "and/or"), chat.Text(chat.Role("/tool"), "x")}
	for i := range 3 {
		out, err := tpl.Render(ctx, msgs)
		require.NoError(t, err, "rendering %d", i)
		assert.Equal(t, "<|/tool|><||>and/or<||>x", out)
	}
	assert.Equal(t, uint64(3), chattemplate.ForgeChecks(tpl))
	second = 0
	_, err = tpl.Render(ctx, msgs)
	var se *format.SpecialTokenError
	require.ErrorAs(t, err, &se, "the clock's second 00 writes the role")
	assert.Equal(t, "<|/tool|>", se.Token)
}

// A rendering that reads something that varies from rendering to
// rendering (an object's address, lipsum, a random item) is not kept
// clean: every rendering of the kept conversation is tested again.
func TestCleanRenderingNotKeptWhenItVaries(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"an address", "{{ (cycler(1)|string)[:0] }}"},
		{"lipsum", "{{ (lipsum(1)|length > 0)|string|length * '' }}"},
		{"random", "{{ [''] | random }}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src + joinsTemplate)
			require.NoError(t, err)
			msgs := []chat.Message{chat.Text(chat.RoleUser, "and/or"), chat.Text(chat.RoleAssistant, "ok")}
			for i := range 3 {
				out, err := tpl.Render(context.Background(), msgs)
				require.NoError(t, err, "rendering %d", i)
				assert.Equal(t, "<|/tool|><|user|>and/or<|assistant|>ok", out)
			}
			assert.Equal(t, uint64(3), chattemplate.ForgeChecks(tpl), "every rendering tested")
		})
	}
}

// A rendering that varies in another goroutine does not keep a clean
// one from being kept (each rendering reports its own reads).
func TestCleanRenderingKeptBesideAVaryingOne(t *testing.T) {
	tpl, err := chattemplate.New(joinsTemplate)
	require.NoError(t, err)
	varying, err := chattemplate.New("{{ (cycler(1)|string)[:0] }}{{ lipsum(1)|length * 0 }}" + joinsTemplate)
	require.NoError(t, err)
	ctx := context.Background()
	stop, done, started := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var n uint64 // the varying one's renderings
	go func() {
		defer close(done)
		msgs := []chat.Message{chat.Text(chat.RoleUser, "x/y")}
		for i := 0; ; i++ {
			if i == 1 {
				close(started)
			}
			select {
			case <-stop:
				return
			default:
			}
			if _, err := varying.Render(ctx, msgs); err != nil {
				t.Error(err)
				return
			}
			n++
		}
	}()
	<-started
	msgs := []chat.Message{chat.Text(chat.RoleUser, "and/or"), chat.Text(chat.RoleAssistant, "ok")}
	for i := range 50 {
		_, err := tpl.Render(ctx, msgs)
		require.NoError(t, err, "rendering %d", i)
	}
	close(stop)
	<-done
	// the first rendering keeps the conversation, the second is found
	// clean, the others are not tested
	assert.Equal(t, uint64(2), chattemplate.ForgeChecks(tpl))
	assert.Equal(t, n, chattemplate.ForgeChecks(varying), "the varying one tested at every rendering")
}
