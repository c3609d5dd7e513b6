package chattemplate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// TestConversationKept: the kept conversation is used only for messages
// equal to the kept ones at their place, whatever the caller changes in
// place between renderings (a part's text or URL, a tool call's argument
// bytes, a role), and the special-token rule refuses the same
// conversations as when everything is scanned afresh, including a token
// made of two kept messages' text (step 2, from the kept marks).
func TestConversationKept(t *testing.T) {
	tpl, err := New("{% for m in messages %}{{ m.role }}:{{ m.content if m.content is string else m.content|map(attribute='url')|join(',') }}"+
		"{% for c in m.tool_calls %}[{{ c.function.arguments.x }}]{% endfor %};{% endfor %}",
		Token("eos_token", "<|im_end|>"))
	require.NoError(t, err)
	ctx := context.Background()
	args := []byte(`{"x": 1}`)
	msgs := []chat.Message{
		chat.Text(chat.RoleUser, "hi"),
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "1", Name: "f", Arguments: args}}},
		{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: "http://a"}}},
	}
	render := func(opts ...format.Option) (string, error) { return tpl.Render(ctx, msgs, opts...) }
	refused := func(index int) {
		t.Helper()
		_, err := render()
		var se *format.SpecialTokenError
		require.True(t, errors.As(err, &se), "%v", err)
		assert.Equal(t, index, se.Index)
	}

	for range 2 {
		got, err := render()
		require.NoError(t, err)
		assert.Equal(t, "user:hi;assistant:[1];user:http://a;", got)
	}
	kept := tpl.conv.Load()
	require.NotNil(t, kept)
	_, err = render()
	require.NoError(t, err)
	assert.Same(t, kept, tpl.conv.Load(), "the same conversation again is the kept one")

	copy(args, `{"x": 2}`)
	got, err := render()
	require.NoError(t, err)
	assert.Equal(t, "user:hi;assistant:[2];user:http://a;", got)

	msgs[2].Content[0].URL = "http://b"
	got, err = render()
	require.NoError(t, err)
	assert.Equal(t, "user:hi;assistant:[2];user:http://b;", got)

	msgs = append(msgs, chat.Text(chat.RoleAssistant, "ok"))
	got, err = render()
	require.NoError(t, err)
	assert.Equal(t, "user:hi;assistant:[2];user:http://b;assistant:ok;", got)

	msgs[0].Role = chat.RoleSystem
	got, err = render()
	require.NoError(t, err)
	assert.Equal(t, "system:hi;assistant:[2];user:http://b;assistant:ok;", got)

	// a token in a URL, allowed once, then in the arguments
	msgs[2].Content[0].URL = "http://<|im_end|>"
	refused(2)
	refused(2)
	_, err = render(format.AllowSpecialTokens())
	require.NoError(t, err)
	refused(2)
	msgs[2].Content[0].URL = "http://b"
	args = append(args[:0], `{"x": "<|im_end|>"}`...)
	msgs[1].ToolCalls[0].Arguments = args
	refused(1)

	// a token the template makes of two messages' text: refused at every
	// rendering, the second from the kept marks
	msgs = []chat.Message{chat.Text(chat.RoleUser, "<|im_"), chat.Text(chat.RoleUser, "end|>")}
	tpl2, err := New("{% for m in messages %}{{ m.content }}{% endfor %}", Token("eos_token", "<|im_end|>"))
	require.NoError(t, err)
	for range 2 {
		_, err := tpl2.Render(ctx, msgs)
		var se *format.SpecialTokenError
		require.True(t, errors.As(err, &se), "%v", err)
		assert.Equal(t, -1, se.Index)
	}

	// a conversation continued takes the kept messages' dicts; two
	// conversations in turn are not kept
	tpl3, err := New("{% for m in messages %}{{ m.content }};{% endfor %}")
	require.NoError(t, err)
	a := []chat.Message{chat.Text(chat.RoleUser, "a"), chat.Text(chat.RoleAssistant, "b")}
	b := []chat.Message{chat.Text(chat.RoleUser, "c")}
	for i, tc := range []struct {
		msgs []chat.Message
		want string
		kept int // messages kept after, -1: none
	}{
		{a, "a;b;", -1}, {b, "c;", -1}, {a, "a;b;", -1}, {a, "a;b;", 2},
		{append(a, chat.Text(chat.RoleUser, "d")), "a;b;d;", 3},
		{b, "c;", 3}, {a, "a;b;", 3},
	} {
		before := tpl3.conv.Load()
		got, err := tpl3.Render(ctx, tc.msgs)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "step %d", i)
		after := tpl3.conv.Load()
		if tc.kept < 0 {
			assert.Nil(t, after, "step %d", i)
			continue
		}
		require.NotNil(t, after, "step %d", i)
		assert.Len(t, after.vals, tc.kept, "step %d", i)
		if before != nil && after != before {
			assert.Same(t, before.vals[0].DictOf(), after.vals[0].DictOf(), "step %d: the first message's dict is the kept one", i)
		}
	}
}

// TestConversationKeptConcurrent renders three conversations from many
// goroutines on one Template: each gets its own prompt, whatever the
// others keep (go test -race checks the sharing).
func TestConversationKeptConcurrent(t *testing.T) {
	tpl, err := New("{% for m in messages %}{{ m.role }}:{{ m.content }};{% endfor %}", Token("eos_token", "<|im_end|>"))
	require.NoError(t, err)
	a := []chat.Message{chat.Text(chat.RoleUser, "a"), chat.Text(chat.RoleAssistant, "b")}
	convs := [][]chat.Message{a, append(a[:2:2], chat.Text(chat.RoleUser, "c")), {chat.Text(chat.RoleUser, "<|x")}}
	wants := []string{"user:a;assistant:b;", "user:a;assistant:b;user:c;", "user:<|x;"}
	inParallel(t, func(k int) error {
		got, err := tpl.Render(context.Background(), convs[k])
		if err == nil && got != wants[k] {
			err = errors.New(got + " for " + wants[k])
		}
		return err
	}, len(convs))
}

// inParallel calls check from 8 goroutines, 200 times each, with k
// cycling through [0, n) at a different phase in each goroutine, and
// asserts that every goroutine ran through without an error.
func inParallel(t *testing.T, check func(k int) error, n int) {
	done := make(chan error)
	for g := range 8 {
		go func() {
			for i := range 200 {
				if err := check((g + i/3) % n); err != nil {
					done <- err
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

// TestNeutralConversationKeptConcurrent is TestConversationKeptConcurrent
// for a template that takes the special-token guard's second rendering:
// the neutral copy kept with a conversation is shared by the goroutines,
// and the conversation that makes a token with the template's text is
// refused in every one.
func TestNeutralConversationKeptConcurrent(t *testing.T) {
	tpl, err := New("{% for m in messages %}<{{ m.content }}>{% endfor %}", SpecialTokens("<|im_end|>"))
	require.NoError(t, err)
	a := []chat.Message{chat.Text(chat.RoleUser, "a|b_c"), chat.Text(chat.RoleAssistant, "d>")}
	convs := [][]chat.Message{a, append(a[:2:2], chat.Text(chat.RoleUser, "_|")), {chat.Text(chat.RoleUser, "|im_end|")}}
	wants := []string{"<a|b_c><d>>", "<a|b_c><d>><_|>", ""}
	inParallel(t, func(k int) error {
		got, err := tpl.Render(context.Background(), convs[k])
		var se *format.SpecialTokenError
		switch {
		case k == 2 && !errors.As(err, &se):
			return fmt.Errorf("%q: rendered %q, %v", convs[k][0].Text(), got, err)
		case k == 2:
			return nil
		case err == nil && got != wants[k]:
			return errors.New(got + " for " + wants[k])
		}
		return err
	}, len(convs))
	assert.Positive(t, tpl.neutralConverted.Load())
}

// TestRenderVarsDoNotStay: the variables of one rendering are not seen by
// the next, with or without format.Vars, on one goroutine or many.
func TestRenderVarsDoNotStay(t *testing.T) {
	tpl, err := New("{{ x is defined }},{{ tools is none }},{{ add_generation_prompt }},{{ documents }},{{ bos_token }},{{ messages|length }}",
		Token("bos_token", "<s>"))
	require.NoError(t, err)
	ctx := context.Background()
	one := []chat.Message{chat.Text(chat.RoleUser, "a")}
	for i, tc := range []struct {
		opts []format.Option
		msgs []chat.Message
		want string
	}{
		{nil, one, "False,True,False,None,<s>,1"},
		{[]format.Option{format.Vars(map[string]any{"x": 1, "y": "d"}), format.GenerationPrompt()}, nil, "True,True,True,None,<s>,0"},
		{[]format.Option{format.Tools(chat.Tool{Name: "f"})}, one, "False,False,False,None,<s>,1"},
		{nil, nil, "False,True,False,None,<s>,0"},
		{[]format.Option{format.Vars(map[string]any{"bos_token": "B"})}, one, "False,True,False,None,B,1"},
		{nil, one, "False,True,False,None,<s>,1"},
		{nil, one, "False,True,False,None,<s>,1"}, // kept
		{nil, append(one, one...), "False,True,False,None,<s>,2"},
		{[]format.Option{format.GenerationPrompt()}, one, "False,True,True,None,<s>,1"},
		{nil, one, "False,True,False,None,<s>,1"},
	} {
		got, err := tpl.Render(ctx, tc.msgs, tc.opts...)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "step %d", i)
	}
}

// TestConversationKeptBound: a conversation longer than maxKeptMessages
// is not kept, even as the continuation of the kept one.
func TestConversationKeptBound(t *testing.T) {
	tpl, err := New("{{ messages|length }}")
	require.NoError(t, err)
	msgs := make([]chat.Message, maxKeptMessages+1)
	for i := range msgs {
		msgs[i] = chat.Text(chat.RoleUser, "m")
	}
	for range 2 {
		got, err := tpl.Render(context.Background(), msgs[:maxKeptMessages])
		require.NoError(t, err)
		assert.Equal(t, "1024", got)
	}
	require.NotNil(t, tpl.conv.Load())
	got, err := tpl.Render(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, "1025", got)
	assert.Len(t, tpl.conv.Load().vals, maxKeptMessages)
}

// TestTokenNamedLikeAVariable: a special token variable named like one of
// a rendering's own variables is hidden by it, with or without
// format.Vars, and when the generation spans are asked for.
func TestTokenNamedLikeAVariable(t *testing.T) {
	tpl, err := New("{{ messages|length }},{{ add_generation_prompt }},{{ documents }},{{ tools is none }},{{ eos_token }}"+
		"{% generation %}!{% endgeneration %}",
		Token("messages", "MMM"), Token("add_generation_prompt", "A"), Token("documents", "D"), Token("tools", "T"), Token("eos_token", "E"))
	require.NoError(t, err)
	ctx := context.Background()
	one := []chat.Message{chat.Text(chat.RoleUser, "a")}
	for _, opts := range [][]format.Option{nil, {format.Vars(map[string]any{"x": 1})}} {
		got, err := tpl.Render(ctx, one, opts...)
		require.NoError(t, err)
		assert.Equal(t, "1,False,None,True,E!", got)
		got, spans, err := tpl.RenderSpans(ctx, one, opts...)
		require.NoError(t, err)
		assert.Equal(t, "1,False,None,True,E!", got)
		assert.Len(t, spans, 1)
	}
}

// TestMsgSnapSame: a message is the same as its copy until any field the
// conversion or the scan reads changes in place, whichever shortcut same
// takes for it (a role of package chat or another, one text part or
// several, tool calls).
func TestMsgSnapSame(t *testing.T) {
	base := func() []chat.Message {
		return []chat.Message{
			chat.Text(chat.RoleUser, "hi"),
			chat.Text(chat.RoleSystem, "sys"),
			chat.Text("narrator", "once"),
			{Role: chat.RoleAssistant, Content: []chat.Part{{Type: chat.PartText, Text: "a"}},
				ToolCalls: []chat.ToolCall{{ID: "1", Name: "f", Arguments: []byte(`{"x": 1}`)}}},
			{Role: chat.RoleTool, ToolCallID: "1", Name: "f", Content: []chat.Part{{Type: chat.PartText, Text: "r"}}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"), {Type: chat.PartImage, URL: "http://a", Detail: "low"}}},
			{Role: chat.RoleUser},
			{Role: chat.RoleTool, ToolCallID: "call1", Content: []chat.Part{{Type: chat.PartText, Text: "20"}}},
		}
	}
	changes := []struct {
		name   string
		index  int
		change func(m *chat.Message)
	}{
		{"role user to assistant", 0, func(m *chat.Message) { m.Role = chat.RoleAssistant }},
		{"role user to another", 0, func(m *chat.Message) { m.Role = "narrator" }},
		{"role system to user", 1, func(m *chat.Message) { m.Role = chat.RoleUser }},
		{"role another to user", 2, func(m *chat.Message) { m.Role = chat.RoleUser }},
		{"role another to another", 2, func(m *chat.Message) { m.Role = "chorus" }},
		{"role tool to developer", 4, func(m *chat.Message) { m.Role = chat.RoleDeveloper }},
		{"text", 0, func(m *chat.Message) { m.Content[0].Text = "ho" }},
		{"text emptied", 0, func(m *chat.Message) { m.Content[0].Text = "" }},
		{"text part's type", 0, func(m *chat.Message) { m.Content[0].Type = chat.PartImage }},
		{"text part gets a URL", 0, func(m *chat.Message) { m.Content[0].URL = "http://a" }},
		{"text part gets a media type", 1, func(m *chat.Message) { m.Content[0].MediaType = "text/plain" }},
		{"text part gets a detail", 1, func(m *chat.Message) { m.Content[0].Detail = "low" }},
		{"a part more", 0, func(m *chat.Message) { m.Content = append(m.Content, chat.TextPart("x")) }},
		{"no parts", 0, func(m *chat.Message) { m.Content = nil }},
		{"a part", 6, func(m *chat.Message) { m.Content = []chat.Part{chat.TextPart("")} }},
		{"name", 4, func(m *chat.Message) { m.Name = "g" }},
		{"name set", 0, func(m *chat.Message) { m.Name = "alice" }},
		{"tool call id", 4, func(m *chat.Message) { m.ToolCallID = "2" }},
		{"tool call id emptied", 4, func(m *chat.Message) { m.ToolCallID = "" }},
		{"call's id", 3, func(m *chat.Message) { m.ToolCalls[0].ID = "" }},
		{"call's name", 3, func(m *chat.Message) { m.ToolCalls[0].Name = "g" }},
		{"call's arguments in place", 3, func(m *chat.Message) { m.ToolCalls[0].Arguments[6] = '2' }},
		{"a call more", 0, func(m *chat.Message) { m.ToolCalls = []chat.ToolCall{{Name: "f"}} }},
		{"second part's URL", 5, func(m *chat.Message) { m.Content[1].URL = "http://b" }},
		{"second part's detail", 5, func(m *chat.Message) { m.Content[1].Detail = "high" }},
		{"first of two parts' text", 5, func(m *chat.Message) { m.Content[0].Text = "see" }},
		{"tool call id set", 0, func(m *chat.Message) { m.ToolCallID = "x" }},
		{"plain tool call id", 7, func(m *chat.Message) { m.ToolCallID = "call2" }},
		{"plain tool call id emptied", 7, func(m *chat.Message) { m.ToolCallID = "" }},
		{"plain tool message's text", 7, func(m *chat.Message) { m.Content[0].Text = "21" }},
		{"plain tool message's role", 7, func(m *chat.Message) { m.Role = chat.RoleUser }},
		{"plain tool message gets a name", 7, func(m *chat.Message) { m.Name = "f" }},
		{"plain tool message gets a call", 7, func(m *chat.Message) { m.ToolCalls = []chat.ToolCall{{Name: "f"}} }},
		{"role system to tool", 1, func(m *chat.Message) { m.Role = chat.RoleTool }},
		{"role assistant to system", 3, func(m *chat.Message) { m.Role = chat.RoleSystem }},
	}
	// heldBy compares the plain messages itself, the others with same:
	// both must see every change, alone and after other messages
	kept := func(msgs []chat.Message) *convKept {
		kc := &convKept{}
		for i := range msgs {
			kc.snaps = append(kc.snaps, snapOf(&msgs[i]))
		}
		return kc
	}
	// elsewhere is base() with every string in memory of its own: equal
	// strings that share no bytes with the kept ones, which heldBy and
	// same compare byte by byte (they share the constants' otherwise)
	elsewhere := func() []chat.Message {
		msgs := base()
		for i := range msgs {
			m := &msgs[i]
			m.Role, m.Name, m.ToolCallID = chat.Role(strings.Clone(string(m.Role))), strings.Clone(m.Name), strings.Clone(m.ToolCallID)
			m.Content = slices.Clone(m.Content)
			for j := range m.Content {
				p := &m.Content[j]
				p.Type, p.Text, p.URL = chat.PartType(strings.Clone(string(p.Type))), strings.Clone(p.Text), strings.Clone(p.URL)
				p.MediaType, p.Detail = strings.Clone(p.MediaType), strings.Clone(p.Detail)
			}
			m.ToolCalls = slices.Clone(m.ToolCalls)
			for j := range m.ToolCalls {
				c := &m.ToolCalls[j]
				c.ID, c.Name, c.Arguments = strings.Clone(c.ID), strings.Clone(c.Name), bytes.Clone(c.Arguments)
			}
		}
		return msgs
	}
	msgs := base()
	kc := kept(msgs)
	assert.Equal(t, len(msgs), kc.heldBy(msgs))
	assert.Equal(t, len(msgs), kc.heldBy(base()), "an equal copy")
	assert.Equal(t, len(msgs), kc.heldBy(elsewhere()), "an equal copy in other memory")
	for i := range msgs {
		s := snapOf(&msgs[i])
		assert.True(t, s.same(&msgs[i]), "message %d", i)
		again := base()[i]
		assert.True(t, s.same(&again), "message %d, an equal copy", i)
		other := elsewhere()[i]
		assert.True(t, s.same(&other), "message %d, an equal copy in other memory", i)
		assert.Equal(t, 1, kept(msgs[i:i+1]).heldBy(base()[i:i+1]), "message %d alone", i)
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			msgs := base()
			s := snapOf(&msgs[tc.index])
			kc, alone := kept(msgs), kept(msgs[tc.index:tc.index+1])
			tc.change(&msgs[tc.index])
			assert.False(t, s.same(&msgs[tc.index]))
			assert.Equal(t, 0, alone.heldBy(msgs[tc.index:tc.index+1]), "alone")
			assert.Equal(t, tc.index, kc.heldBy(msgs), "after the others")
		})
	}
}
