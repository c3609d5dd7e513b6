package chat

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzStrings are the texts, URLs and arguments the fuzzed messages draw
// from besides the fuzzer's two strings.
var fuzzStrings = []string{"", "plain", "<b>&amp;</b> \u2028\u2029", "quote \" back \\ slash \n\t\x00\x1f\x7f",
	"bad \xff utf8 \xc3", "Grüß 😀 中文", "data:audio/wav;base64,UklGRg==", "data:,percent%20text",
	"data:text/plain,hi%20there", "data:application/pdf;base64,JVBERi0=", "data:image/png;base64,iVBORw0KGgo=",
	"data:;base64,SUQz", "https://example.com/a.png", `{"currency": "EUR", "n": [1, 2.5e3]}`, ` {"a" : "<b>"} `,
	`[1]`, `{"a":`, "null", `"\xff"`}

// fuzzBytes hands out the bytes of a fuzz input, then zeros.
type fuzzBytes []byte

func (f *fuzzBytes) next() int {
	if len(*f) == 0 {
		return 0
	}
	c := (*f)[0]
	*f = (*f)[1:]
	return int(c)
}

// fuzzMessages builds a conversation from spec, drawing strings from a, b
// and fuzzStrings: every role (and unknown ones), names, call IDs, every
// part type, tool calls with any arguments.
func fuzzMessages(spec []byte, a, b string) []Message {
	pool := append([]string{a, b}, fuzzStrings...)
	str := func(f *fuzzBytes) string { return pool[f.next()%len(pool)] }
	roles := []Role{RoleSystem, RoleUser, RoleAssistant, RoleTool, RoleDeveloper, "", "narrator", Role(a)}
	parts := []PartType{PartText, PartImage, PartAudio, PartFile, "video"}
	f := fuzzBytes(spec)
	var msgs []Message
	for len(f) > 0 && len(msgs) < 16 {
		m := Message{Role: roles[f.next()%len(roles)]}
		flags := f.next()
		if flags&1 != 0 {
			m.Name = str(&f)
		}
		if flags&2 != 0 {
			m.ToolCallID = str(&f)
		}
		for range (flags >> 2) & 3 {
			p := Part{Type: parts[f.next()%len(parts)], Text: str(&f)}
			if p.Type != PartText {
				p.Text, p.URL = "", str(&f)
				if c := f.next(); c&1 != 0 {
					p.Detail = str(&f)
				} else if c&2 != 0 {
					p.MediaType = str(&f)
				}
			}
			m.Content = append(m.Content, p)
		}
		for range (flags >> 4) & 3 {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: str(&f), Name: str(&f), Arguments: json.RawMessage(str(&f))})
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// fuzzSettings are requests with every kind of setting, valid and not.
func fuzzSettings(a string) []Settings {
	tools := []Tool{rateTool, {Name: "now"}, {Name: a, Description: "<" + a + ">", Parameters: json.RawMessage(` { "type" : "object" } `)}}
	mt := map[string]any{"max_tokens": 64}
	return []Settings{
		{Model: "gpt-4o-mini"},
		{Model: a, Config: mt},
		{Model: "m", Config: map[string]any{"maxOutputTokens": 50, "topP": 0.5, "stop": a, "temperature": 0.7,
			"metadata": map[string]any{"team": a, "n": []any{1, 2.5, nil, true}}, "raw": json.RawMessage(` [ 1 , "<&>" ] `)}},
		{Model: "m", Config: mt, Tools: tools, ToolChoice: ToolAuto},
		{Model: "m", Config: mt, Tools: tools, ToolChoice: ToolRequired},
		{Model: "m", Config: mt, Tools: tools, ToolChoice: ToolChoice(a)},
		{Model: "m", Config: mt, Output: Output{Format: OutputJSON}},
		{Model: "m", Config: mt, Output: Output{Format: OutputJSON, Schema: json.RawMessage(" {\"type\": \"object\", \"x\": \"" + "\u2028" + "\"}"), Name: a}},
		{Model: "m", Config: mt, Output: Output{Format: OutputJSON, Schema: answerSchema, Strict: true}},
		{Model: "m", Config: map[string]any{"max_tokens": 1, "maxOutputTokens": 2, "seed": 1}},
		{Model: "m", Config: map[string]any{"max_tokens": 1, "stopSequences": []string{a}, "stop_sequences": a}},
	}
}

// FuzzRequestBodies checks OpenAIBody, AnthropicBody and Message's
// MarshalJSON, which write JSON themselves, against the same requests built
// as trees of values and marshalled by encoding/json (request_ref_test.go):
// the same bytes, or the same error.
func FuzzRequestBodies(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 1, 4, 0, 3}, "hello", "world")
	f.Add([]byte{2, 0x10, 0, 0, 15, 3, 2, 0}, "x", "y")
	f.Add([]byte{1, 0x0c, 0, 0, 1, 2, 0, 2, 3, 6, 0, 3, 9, 0, 4, 2, 0}, "<&>", "\u2028")
	f.Add([]byte{1, 0x0c, 1, 12, 1, 2, 1, 14, 3, 11, 2, 5, 6, 1}, "a\"b", "c\\d")
	f.Add([]byte{2, 0x27, 3, 4, 0, 0, 1, 13, 5, 6, 14, 4, 2, 0}, "id", "{}")
	f.Add([]byte{3, 0x02, 2, 3, 0x04, 0, 1}, "call_1", "result")
	f.Add([]byte{3, 0x00, 4, 0x0c, 0, 1, 1, 1, 7, 1, 0, 6}, "", "\xff")
	f.Add([]byte{2, 0x30, 0, 1, 15, 0, 1, 16, 0, 1, 17, 2, 0x10, 0, 1, 20}, "f", "g")
	f.Add([]byte{1, 0x0c, 3, 9, 0, 3, 8, 2, 2, 12, 0, 2, 6, 1, 2}, "data:audio/mp3;base64,SUQz", "audio/flac")
	f.Add([]byte{0, 0x01, 0, 4, 0, 7, 0x3c, 4, 0, 0, 0, 0, 0}, "n", "v")
	f.Fuzz(func(t *testing.T, spec []byte, a, b string) {
		msgs := fuzzMessages(spec, a, b)
		for _, m := range msgs {
			want, wantErr := refMarshalMessage(m)
			got, err := m.MarshalJSON()
			sameResult(t, "Message.MarshalJSON", want, wantErr, got, err)
		}
		for _, s := range fuzzSettings(a) {
			want, wantErr := refOpenAIBody(msgs, s)
			got, err := OpenAIBody(msgs, s)
			sameResult(t, "OpenAIBody", want, wantErr, got, err)
			prefix := []byte("prefix:")
			got, err = AppendOpenAIBody(prefix, msgs, s)
			sameResult(t, "AppendOpenAIBody", append(prefix, want...), wantErr, got, err)

			want, wantErr = refAnthropicBody(msgs, s)
			got, err = AnthropicBody(msgs, s)
			sameResult(t, "AnthropicBody", want, wantErr, got, err)
			got, err = AppendAnthropicBody(prefix, msgs, s)
			sameResult(t, "AppendAnthropicBody", append(prefix, want...), wantErr, got, err)
		}
	})
}

func sameResult(t *testing.T, what string, want []byte, wantErr error, got []byte, err error) {
	t.Helper()
	if wantErr != nil {
		require.Error(t, err, "%s: encoding/json failed with %v; got %s", what, wantErr, got)
		require.Equal(t, wantErr.Error(), err.Error(), what)
		return
	}
	require.NoError(t, err, what)
	require.Equal(t, string(want), string(got), what)
}

// TestRequestBodyValueErrors: a parameter value or tool that JSON cannot
// carry is a *RequestError naming it, where encoding/json's error named the
// builder's internals.
func TestRequestBodyValueErrors(t *testing.T) {
	tests := []struct {
		name   string
		target string
		s      Settings
		field  string
		want   string
	}{
		{"openai NaN", "openai", Settings{Model: "m", Config: map[string]any{"temperature": math.NaN()}}, "config.temperature",
			"chat: openai request: config.temperature: json: unsupported value: NaN"},
		{"anthropic max_tokens a channel", "anthropic", Settings{Model: "m", Config: map[string]any{"max_tokens": make(chan int)}}, "config.max_tokens",
			"chat: anthropic request: config.max_tokens: json: unsupported type: chan int"},
		{"anthropic invalid raw parameter", "anthropic", Settings{Model: "m", Config: map[string]any{"max_tokens": 1, "x": json.RawMessage(`{`)}}, "config.x",
			"chat: anthropic request: config.x: unexpected end of JSON input"},
		{"openai tool parameters not JSON", "openai", Settings{Model: "m", Tools: []Tool{{Name: "t", Parameters: json.RawMessage(`{`)}}}, "tools",
			`chat: openai request: tools: tool "t": json: error calling MarshalJSON for type json.RawMessage: unexpected end of JSON input`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			build, ref := OpenAIBody, refOpenAIBody
			if tt.target == "anthropic" {
				build, ref = AnthropicBody, refAnthropicBody
			}
			_, refErr := ref(nil, tt.s)
			require.Error(t, refErr, "encoding/json refused it too")
			_, err := build(nil, tt.s)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var re *RequestError
			require.True(t, errors.As(err, &re))
			assert.Equal(t, tt.field, re.Field)
		})
	}
}
