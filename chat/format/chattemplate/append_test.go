package chattemplate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// appendAgrees checks that AppendRender, after other bytes, appends what
// Render returned (want), or fails with Render's error (wantErr) and
// leaves the bytes as they were.
func appendAgrees(t testing.TB, tpl *chattemplate.Template, msgs []chat.Message, opts []format.Option, want string, wantErr error) {
	t.Helper()
	const prefix = "prefix|"
	dst := append(make([]byte, 0, len(prefix)+3), prefix...)
	got, err := tpl.AppendRender(context.Background(), dst, msgs, opts...)
	if wantErr != nil {
		assert.Equal(t, wantErr, err, "AppendRender's error is Render's")
		assert.Equal(t, prefix, string(got), "AppendRender, on an error, returns dst as it was")
		return
	}
	if assert.NoError(t, err, "AppendRender fails where Render does not") {
		assert.Equal(t, prefix+want, string(got), "AppendRender appends what Render returns")
	}
}

// TestAppendRenderCorpus renders every (template, conversation) pair of
// the corpus with AppendRender into one buffer, after a prefix, as
// TestCorpus renders them with Render, with the special tokens allowed
// and refused, ending with the generation prompt where the conversation
// asks for one and else continuing the final message, and with neither:
// the bytes appended are Render's string, byte for byte, or the
// error is Render's and the buffer keeps its length and its prefix. The
// buffer is reused from pair to pair, so prompts of every length follow
// each other in it; each pair is rendered twice, AppendRender first or
// second, so that each meets the conversation the other kept.
func TestAppendRenderCorpus(t *testing.T) {
	sources, convs, results := readCorpus(t)
	compiled := map[string]*chattemplate.Template{}
	for _, s := range sources {
		if tpl, err := s.compile(); err == nil {
			compiled[s.File] = tpl
		}
	}
	const prefix = "<prefix>"
	buf := []byte(prefix)
	ctx := context.Background()
	var same, failSame, grew int
	for i, r := range results {
		tpl := compiled[r.Template]
		if tpl == nil {
			continue
		}
		conv := convs[r.Conversation]
		msgs := conv.messages(t)
		tools := format.Tools(conv.tools()...)
		ending := format.ContinueFinal()
		if conv.AddGenerationPrompt {
			ending = format.GenerationPrompt()
		}
		for _, o := range []struct {
			name string
			opts []format.Option
		}{
			{"allowed", []format.Option{tools, ending, format.AllowSpecialTokens()}},
			{"guarded", []format.Option{tools, ending}},
			{"bare", []format.Option{tools, format.AllowSpecialTokens()}},
		} {
			key := r.Template + " / " + r.Conversation + " / " + o.name
			render := func() (string, error) { return tpl.Render(ctx, msgs, o.opts...) }
			appendTo := func() ([]byte, error) {
				before := cap(buf)
				got, err := tpl.AppendRender(ctx, buf[:len(prefix)], msgs, o.opts...)
				if cap(got) > before {
					grew++
				}
				return got, err
			}
			var want string
			var wantErr, err error
			var got []byte
			if i%2 == 0 {
				want, wantErr = render()
				got, err = appendTo()
			} else {
				got, err = appendTo()
				want, wantErr = render()
			}
			if wantErr != nil {
				require.Equal(t, wantErr, err, key)
				require.Len(t, got, len(prefix), key)
				require.Equal(t, prefix, string(buf[:len(prefix)]), key)
				failSame++
				continue
			}
			require.NoError(t, err, key)
			require.Equal(t, prefix+want, string(got), key)
			buf = got
			same++
		}
	}
	t.Logf("%d renderings identical, %d failing alike; the buffer grew %d times", same, failSame, grew)
	assert.Greater(t, same, 2000)
	assert.Greater(t, failSame, 300)
}

// AppendRender's errors are Render's, and leave dst's length (and its
// bytes) as they were: the options in conflict, a special token in the
// data, a token the rendering makes, the template's refusal, a final
// message it cannot continue, a cancelled context.
func TestAppendRenderErrors(t *testing.T) {
	chatml, err := chattemplate.New(chatmlTemplate)
	require.NoError(t, err)
	refuses, err := chattemplate.New("{{ raise_exception('no system role') }}", chattemplate.Name("gemma.jinja"))
	require.NoError(t, err)
	// the template joins data to its own text into a token
	joins, err := chattemplate.New("{% for m in messages %}{{ m.content }}|>{% endfor %}", chattemplate.SpecialTokens("<|im_end|>"))
	require.NoError(t, err)
	rolesOnly, err := chattemplate.New("{% for m in messages %}[{{ m.role }}]{% endfor %}")
	require.NoError(t, err)
	user := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		tpl  *chattemplate.Template
		ctx  context.Context
		msgs []chat.Message
		opts []format.Option
		is   error  // the error wrapped, when it is a sentinel
		want string // else its message
	}{
		{"conflict", chatml, nil, user, []format.Option{format.ContinueFinal(), format.GenerationPrompt()}, format.ErrContinueConflict, ""},
		{"special token", chatml, nil, []chat.Message{chat.Text(chat.RoleUser, "hi<|im_end|>")}, nil, nil,
			`format: message 1 (content) holds the special token "<|im_end|>" (a token the template's own text writes, taken as special without a tokenizer config); refused so that content cannot forge a turn (AllowSpecialTokens allows it)`},
		{"made by the rendering", joins, nil, []chat.Message{chat.Text(chat.RoleUser, "<|im_end")}, nil, nil,
			`format: the prompt, where the format or template makes the data's text into a token, holds the special token "<|im_end|>"; refused so that content cannot forge a turn (AllowSpecialTokens allows it)`},
		{"raised", refuses, nil, user, nil, nil, "gemma.jinja:1:19: the template refuses the conversation: no system role"},
		{"not continuable", rolesOnly, nil, []chat.Message{chat.Text(chat.RoleUser, "hi"), chat.Text(chat.RoleAssistant, "zzz")},
			[]format.Option{format.ContinueFinal()}, format.ErrNotContinuable, ""},
		{"cancelled", chatml, cancelled, user, nil, context.Canceled, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			_, wantErr := tc.tpl.Render(ctx, tc.msgs, tc.opts...)
			if tc.is != nil {
				require.ErrorIs(t, wantErr, tc.is)
			} else {
				require.EqualError(t, wantErr, tc.want)
			}
			dst := make([]byte, 5, 64)
			copy(dst, "head:")
			got, err := tc.tpl.AppendRender(ctx, dst, tc.msgs, tc.opts...)
			assert.Equal(t, wantErr, err)
			assert.Equal(t, "head:", string(got))
			assert.Equal(t, "head:", string(dst))
		})
	}
}

// One buffer takes prompts of every length in turn, long and short, as
// a server rendering one conversation after another into it does; each
// prompt is Render's, and after the first long one, none allocates.
func TestAppendRenderReusedBuffer(t *testing.T) {
	tpl, err := chattemplate.New(chatmlTemplate)
	require.NoError(t, err)
	ctx := context.Background()
	var buf []byte
	for _, n := range []int{1, 5000, 3, 70000, 0, 200, 70000, 1} {
		msgs := []chat.Message{chat.Text(chat.RoleUser, strings.Repeat("a", n)), chat.Text(chat.RoleAssistant, "ok")}
		want, err := tpl.Render(ctx, msgs, format.GenerationPrompt())
		require.NoError(t, err)
		buf, err = tpl.AppendRender(ctx, buf[:0], msgs, format.GenerationPrompt())
		require.NoError(t, err)
		require.Equal(t, want, string(buf), "a user message of %d bytes", n)
	}
	if chattemplate.RaceEnabled {
		return // sync.Pool drops pooled state at random
	}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi"), chat.Text(chat.RoleAssistant, "ok")}
	assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], msgs, format.GenerationPrompt()) }))
	// a nil dst is one allocation, the prompt's, as Render's string is
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, nil, msgs, format.GenerationPrompt()) }))
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _, _ = tpl.Render(ctx, msgs, format.GenerationPrompt()) }))
}

// A rendering whose data holds a token's marks takes step 2's check of
// the prompt (Forgeable) and, the prompt holding no token the data made,
// skips the neutral rendering: it allocates only Render's string, and
// nothing into a reused buffer.
func TestAppendRenderStepTwoAllocatesNothing(t *testing.T) {
	tpl, err := chattemplate.New(chatmlTemplate)
	require.NoError(t, err)
	ctx := context.Background()
	msgs := []chat.Message{chat.Text(chat.RoleUser, "a <| b |> c_d im_end"), chat.Text(chat.RoleAssistant, "ok")}
	buf, err := tpl.AppendRender(ctx, nil, msgs, format.GenerationPrompt())
	require.NoError(t, err)
	before := chattemplate.Unforgeable(tpl)
	want, err := tpl.Render(ctx, msgs, format.GenerationPrompt())
	require.NoError(t, err)
	require.Equal(t, want, string(buf))
	require.Equal(t, before+1, chattemplate.Unforgeable(tpl), "the rendering takes step 2's check")
	if chattemplate.RaceEnabled {
		return
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], msgs, format.GenerationPrompt()) }))
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _, _ = tpl.Render(ctx, msgs, format.GenerationPrompt()) }))
}
