package prompter

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		new   func(string, ...Option) (*Prompter, error)
		instr string
		opts  []Option
		input any
		call  []Option
		code  ErrorCode
		keys  []string
		msg   string
	}{
		{
			name: "list input", new: NewChat, instr: "S", input: []string{"a"}, code: ErrInputType,
			msg: "prompter: input of type []string: want a string, an integer or a map with string keys and string values",
		},
		{
			name: "nil input", new: NewChat, instr: "S", input: nil, code: ErrInputType,
			msg: "prompter: input of type <nil>: want a string, an integer or a map with string keys and string values",
		},
		{
			name: "float input", new: NewChat, instr: "S", input: 1.5, code: ErrInputType,
			msg: "prompter: input of type float64: want a string, an integer or a map with string keys and string values",
		},
		{
			name: "map value not a string", new: NewChat, instr: "n={n}", input: map[string]any{"n": 3}, code: ErrInputType,
			msg: `prompter: input key "n" holds a int; want a string`,
		},
		{
			name: "map with int keys", new: NewChat, instr: "S", input: map[int]string{1: "a"}, code: ErrInputType,
			msg: "prompter: input of type map[int]string: want a string, an integer or a map with string keys and string values",
		},
		{
			name: "map of ints", new: NewChat, instr: "{n}", input: map[string]int{"n": 1}, code: ErrInputType,
			msg: `prompter: input key "n" holds a int; want a string`,
		},
		{
			name: "two slots, string input", new: NewChat, instr: "{a} {b} {a}", input: "x", code: ErrSlotCount,
			msg: "prompter: a single input value needs an instruction with at most one {slot}; this one has 2 ({a}, {b}): pass a map with a key for each",
		},
		{
			name: "missing keys", new: NewAlpaca, instr: "{context} and {input}", input: map[string]string{"q": "x"},
			code: ErrMissingKey, keys: []string{"context", "input"},
			msg: `prompter: input has no key "context", "input" for the instruction's {context}, {input}`,
		},
		{
			name: "missing extra key", new: NewAlpaca, instr: "Add", opts: []Option{ExtraKeys("x", "y")},
			input: map[string]string{"x": "1"}, code: ErrMissingKey, keys: []string{"y"},
			msg: `prompter: input has no key "y" for the instruction's {y}`,
		},
		{
			name: "unexpected keys", new: NewChat, instr: "ctx={context}", input: map[string]string{"context": "C", "b": "2", "a": "1"},
			code: ErrUnexpectedKeys, keys: []string{"a", "b"},
			msg: `prompter: input keys "a", "b" fill no {slot}; at most one key may be left over, as the user's turn`,
		},
		{
			name: "alpaca input without place", new: NewAlpaca, instr: "Add", input: "a+b", code: ErrUnplaced,
			msg: "prompter: the input has no place: the Alpaca layout has no user turn, so the instruction needs a {slot} or an extra key (ExtraKeys) for it",
		},
		{
			name: "alpaca leftover key", new: NewAlpaca, instr: "Add {x}", input: map[string]string{"x": "1", "y": "2"}, code: ErrUnplaced,
			msg: "prompter: the input has no place: the Alpaca layout has no user turn, so the instruction needs a {slot} or an extra key (ExtraKeys) for it",
		},
		{
			name: "alpaca call history", new: NewAlpaca, instr: "Add {x}", input: "a+b",
			call: []Option{Pairs([2]string{"q", "a"})}, code: ErrHistory,
			msg: "prompter: the Alpaca prompter takes no history; use the Chat prompter for conversations",
		},
		{
			name: "bad extra key at call", new: NewChat, instr: "S", input: "a",
			call: []Option{ExtraKeys("my-key")}, code: ErrOption,
			msg: `prompter: extra key "my-key": want letters, digits and underscores only`,
		},
		{
			name: "unknown release at call", new: NewChat, instr: "S", input: "a",
			call: []Option{UseRelease(Release(7))}, code: ErrOption,
			msg: "prompter: unknown release 7",
		},
		{
			name: "bad tool parameters", new: NewChat, instr: "S", input: "a",
			call: []Option{Tools(chat.Tool{Name: "t", Parameters: json.RawMessage(`{"a":`)})}, code: ErrTool,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.new(tc.instr, tc.opts...)
			require.NoError(t, err)
			_, err = p.Prompt(tc.input, tc.call...)
			assertCode(t, tc.code, err)
			if tc.msg != "" {
				assert.EqualError(t, err, tc.msg)
			}
			var pe *Error
			if assert.ErrorAs(t, err, &pe) {
				assert.Equal(t, tc.keys, pe.Keys)
			}
			if tc.code != ErrTool { // the message form does not render tools
				_, err = p.Messages(tc.input, tc.call...)
				assertCode(t, tc.code, err)
			}
		})
	}
}

func TestConstructorErrors(t *testing.T) {
	tests := []struct {
		name string
		new  func(string, ...Option) (*Prompter, error)
		opts []Option
		code ErrorCode
	}{
		{"alpaca history", NewAlpaca, []Option{Pairs([2]string{"q", "a"})}, ErrHistory},
		{"empty extra key", NewChat, []Option{ExtraKeys("")}, ErrOption},
		{"extra key with brace", NewAlpaca, []Option{ExtraKeys("a}")}, ErrOption},
		{"unknown release", NewChat, []Option{UseRelease(-1)}, ErrOption},
		{"bad tool parameters", NewChat, []Option{Tools(chat.Tool{Name: "t", Parameters: json.RawMessage(`[1,`)})}, ErrTool},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.new("x", tc.opts...)
			assert.Nil(t, p)
			assertCode(t, tc.code, err)
		})
	}
}

type (
	name string
	vars map[string]string
)

func TestSlots(t *testing.T) {
	tests := []struct {
		name  string
		instr string
		input any
		want  string // the system message
		user  string // the user message
	}{
		{"unicode slot name", "上下文是{上下文}", map[string]string{"上下文": "背景"}, "上下文是背景", ""},
		{"repeated slot", "{x}+{x}", "1", "1+1", ""},
		{"doubled braces stay", "{{x}}", "1", "{1}", ""},
		{"spaces are no slot", "{ x } {x-y} {}", "q", "{ x } {x-y} {}", "q"},
		{"unclosed brace", "a {x", "q", "a {x", "q"},
		{"values are not rescanned", "{a} {b}", map[string]string{"a": "{b}", "b": "B"}, "{b} B", ""},
		{"map[string]any", "{a}", map[string]any{"a": "A", "rest": "R"}, "A", "R"},
		{"int64 input", "n={n}", int64(-7), "n=-7", ""},
		{"uint8 input", "", uint8(200), "", "200"},
		{"empty map", "S", map[string]string{}, "S", ""},
		{"named string", "{a}", name("A"), "A", ""},
		{"named map", "{a}", vars{"a": "A", "q": "Q"}, "A", "Q"},
		{"map of named strings", "{a}", map[string]name{"a": "A"}, "A", ""},
		{"map[string]any of named string", "{a}", map[string]any{"a": name("A")}, "A", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewChat(tc.instr, System(""), UseRelease(Release2605))
			require.NoError(t, err)
			res, err := p.Messages(tc.input)
			require.NoError(t, err)
			want := tc.want
			if want != "" {
				want += "\n\n"
			}
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, want), chat.Text(chat.RoleUser, tc.user)}, res.Messages)
		})
	}
}

// The tools are written as Python's json.dumps writes the dict LazyLLM
// holds: 1.50 was read as the float 1.5, -2e3 as -2000.0.
func TestToolJSON(t *testing.T) {
	tool := chat.Tool{
		Name:        "t",
		Description: "a \"q\" \\ <b>&\n\t\x01\x7f é 😀",
		Parameters:  json.RawMessage(`{"z": 1.50, "a": [true, false, null, {}, []], "n": -2e3}`),
	}
	tests := []struct {
		release Release
		want    string
	}{
		{Release2406, `[{"type": "function", "function": {"name": "t", "description": "a \"q\" \\ <b>&\n\t\u0001\u007f \u00e9 \ud83d\ude00", "parameters": {"z": 1.5, "a": [true, false, null, {}, []], "n": -2000.0}}}]`},
		// json5.dumps: identifier keys bare ("function" is a reserved
		// word), control characters other than json5's escapes raw.
		{Release2605, "[{type: \"function\", \"function\": {name: \"t\", description: \"a \\\"q\\\" \\\\ <b>&\\n\\t\x01\x7f é 😀\", parameters: {z: 1.5, a: [true, false, null, {}, []], n: -2000.0}}}]"},
	}
	for _, tc := range tests {
		t.Run(tc.release.String(), func(t *testing.T) {
			p, err := NewChat("", System(""), UseRelease(tc.release), UseMarkers(Markers{}), Tools(tool))
			require.NoError(t, err)
			got, err := p.Prompt("q")
			require.NoError(t, err)
			want := "### Function-call Tools. \n\n" + tc.want + "\n\n\n\n\n\nq\n\n"
			if tc.release == Release2406 {
				want = "\n\n" + want
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestToolCallHistory(t *testing.T) {
	p, err := NewChat("", System(""), UseRelease(Release2605), UseMarkers(Markers{CallStart: "<c>", CallEnd: "</c>"}))
	require.NoError(t, err)
	got, err := p.Prompt("q", History(
		chat.Message{Role: chat.RoleSystem, Content: []chat.Part{chat.TextPart("dropped")}},
		chat.Message{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("calling")}, ToolCalls: []chat.ToolCall{
			{Name: "a", Arguments: json.RawMessage(`{"x":"é"}`)},
			{Name: "b", Arguments: json.RawMessage(`not json`)},
			{Name: "c"},
		}},
	))
	require.NoError(t, err)
	assert.Equal(t, "calling<c>\n{\"name\": \"a\", \"arguments\": {\"x\": \"é\"}}</c>\n<c>\n{\"name\": \"b\", \"arguments\": not json}</c>\n<c>\n{\"name\": \"c\", \"arguments\": {}}</c>\n\n\nq\n\n", got)
}

func TestCallOptions(t *testing.T) {
	p, err := NewChat("S {x}", Pairs([2]string{"q1", "a1"}), Tools(example()), UseRelease(Release2605))
	require.NoError(t, err)

	t.Run("history is appended", func(t *testing.T) {
		res, err := p.Messages("X", Pairs([2]string{"q2", "a2"}))
		require.NoError(t, err)
		assert.Equal(t, []chat.Message{
			chat.Text(chat.RoleSystem, "You are an AI-Agent developed by LazyLLM.\nS X\n\n"),
			chat.Text(chat.RoleUser, "q1"), chat.Text(chat.RoleAssistant, "a1"),
			chat.Text(chat.RoleUser, "q2"), chat.Text(chat.RoleAssistant, "a2"),
			chat.Text(chat.RoleUser, ""),
		}, res.Messages)
		assert.Equal(t, []chat.Tool{example()}, res.Tools)
	})
	t.Run("empty tools remove the prompter's", func(t *testing.T) {
		res, err := p.Messages("X", Tools())
		require.NoError(t, err)
		assert.Empty(t, res.Tools)
	})
	t.Run("a call reshapes the instruction", func(t *testing.T) {
		got, err := p.Prompt(map[string]string{"x": "X", "k": "K", "q": "Q"}, ExtraKeys("k"), UserInstruction("U:"),
			System("Sys."), UseMarkers(LazyLLMMarkers()), Tools())
		require.NoError(t, err)
		assert.Equal(t, "<|start_system|>Sys.S X<|end_system|>\n\n<|Human|>:q1<|Assistant|>:a1\n<|Human|>:\nU:Here are some extra messages you can referred to:\n\n### k:\nK\n\nQ\n<|Assistant|>:\n", got)
	})
	t.Run("the prompter is unchanged", func(t *testing.T) {
		got, err := p.Prompt("X")
		require.NoError(t, err)
		assert.Equal(t, "You are an AI-Agent developed by LazyLLM.S X\n\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"example\"}}]\n\n\n\nq1a1\n\n\n\n", got)
	})
	t.Run("results do not share the prompter's history", func(t *testing.T) {
		res, err := p.Messages("X")
		require.NoError(t, err)
		res.Messages[1].Content[0].Text = "changed"
		res.Tools[0].Name = "changed"
		res, err = p.Messages("X")
		require.NoError(t, err)
		assert.Equal(t, "q1", res.Messages[1].Text())
		assert.Equal(t, "example", res.Tools[0].Name)
	})
	t.Run("options do not share the caller's slices", func(t *testing.T) {
		keys := []string{"k"}
		tools := []chat.Tool{example()}
		hist := []chat.Message{chat.Text(chat.RoleUser, "h")}
		q, err := NewChat("S", ExtraKeys(keys...), Tools(tools...), History(hist...))
		require.NoError(t, err)
		keys[0], tools[0].Name, hist[0].Role = "changed", "changed", chat.RoleAssistant
		res, err := q.Messages(map[string]string{"k": "K"})
		require.NoError(t, err)
		assert.Equal(t, chat.RoleUser, res.Messages[1].Role)
		assert.Equal(t, "example", res.Tools[0].Name)
		assert.Contains(t, res.Messages[0].Text(), "### k:\nK")
	})
}

func TestConcurrentUse(t *testing.T) {
	p, err := NewChat("ctx={context}", Pairs([2]string{"q1", "a1"}), Tools(getWeather()))
	require.NoError(t, err)
	want, err := p.Prompt(map[string]string{"context": "C", "input": "Q"})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 50 {
				got, err := p.Prompt(map[string]string{"context": "C", "input": "Q"})
				assert.NoError(t, err)
				assert.Equal(t, want, got)
				_, err = p.Messages(fmt.Sprint(i, j), Pairs([2]string{"q", "a"}), ExtraKeys("k"), Tools())
				assertCode(t, ErrSlotCount, err)
				res, err := p.Messages(map[string]string{"context": "C"}, Pairs([2]string{"q", "a"}))
				assert.NoError(t, err)
				assert.Len(t, res.Messages, 6)
			}
		}()
	}
	wg.Wait()
}
