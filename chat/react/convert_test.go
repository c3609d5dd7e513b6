package react_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

// textCompletion marks the vectors whose query is Qwen's
// _TEXT_COMPLETION_CMD: the model continues the last assistant message.
const textCompletion = "<_TEXT_COMPLETION_CMD>"

// wantConversation reads a parse_messages vector ({query, history, system})
// as the message list Convert returns.
func wantConversation(t testing.TB, vs map[string]qwenVector, id string) []chat.Message {
	t.Helper()
	var w struct {
		Query   string     `json:"query"`
		History [][]string `json:"history"`
		System  string     `json:"system"`
	}
	require.NoError(t, json.Unmarshal(vs[id].Want, &w), "vector %s", id)
	msgs := []chat.Message{chat.Text(chat.RoleSystem, w.System)}
	for _, pair := range w.History {
		require.Len(t, pair, 2)
		msgs = append(msgs, chat.Text(chat.RoleUser, pair[0]), chat.Text(chat.RoleAssistant, pair[1]))
	}
	if w.Query != textCompletion {
		msgs = append(msgs, chat.Text(chat.RoleUser, w.Query))
	}
	return msgs
}

func user(s string) chat.Message      { return chat.Text(chat.RoleUser, s) }
func assistant(s string) chat.Message { return chat.Text(chat.RoleAssistant, s) }
func system(s string) chat.Message    { return chat.Text(chat.RoleSystem, s) }
func result(id, s string) chat.Message {
	m := chat.Text(chat.RoleTool, s)
	m.ToolCallID = id
	return m
}

// call is an assistant message with content s (empty for none) and one tool
// call.
func call(s, id, name, args string) chat.Message {
	m := assistant(s)
	m.ToolCalls = []chat.ToolCall{{ID: id, Name: name, Arguments: json.RawMessage(args)}}
	return m
}

func TestConvertQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	gw := []react.Tool{getWeather(t)}
	tests := []struct {
		name  string
		tools []react.Tool
		msgs  []chat.Message
	}{
		{"Q02", gw, []chat.Message{user("\n\nWeather in Paris?  \n")}},
		{"Q03", nil, []chat.Message{system("\nBe brief.\n"), user("hi")}},
		{"Q04", nil, []chat.Message{user("q1"), assistant("a1"), user("q2")}},
		{"Q05", gw, []chat.Message{
			user("Weather in Paris?"),
			call("I should call the weather API.", "c1", "get_weather", `{"city": "Paris"}`),
			result("c1", `{"temp": 20}`)}},
		{"Q06", gw, []chat.Message{user("hi"), assistant("Hello!"), user("bye")}},
		{"Q07", gw, []chat.Message{user("q"), call("Thought: call it", "c1", "f", `{}`), result("c1", "ok"), assistant("done"), user("q2")}},
		{"Q07b", gw, []chat.Message{user("q"), call("", "c1", "f", `{}`), result("c1", "ok")}},
		{"Q08", gw, []chat.Message{user("q1"), assistant("a1"), user("q2"), assistant("a2"), user("q3")}},
		{"Q09e", gw, []chat.Message{user("q"), assistant("partial")}},
		{"Q09f", nil, []chat.Message{user("q"), assistant("partial")}},
		{"Q10", gw, []chat.Message{
			user("q"),
			call("step1", "c1", "f", `{"a":1}`), result("c1", "r1"),
			call("step2", "c2", "g", `{"b":2}`), result("c2", "r2")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := react.Convert(react.VariantAPI, tc.tools, tc.msgs)
			require.NoError(t, err)
			assert.Equal(t, wantConversation(t, vs, tc.name), got, "input: %s", vs[tc.name].Input)
		})
	}
	t.Run("Q01b", func(t *testing.T) {
		got, err := react.Convert(react.VariantAPI, []react.Tool{getWeather(t), googleSearch(t)}, []chat.Message{user("hi")})
		require.NoError(t, err)
		assert.Equal(t, wantString(t, vs, "Q01b"), got[len(got)-1].Text())
	})
}

func TestConvertQwenErrors(t *testing.T) {
	vs := loadVectors(t)
	gw := []react.Tool{getWeather(t)}
	tests := []struct {
		name  string
		msgs  []chat.Message
		index int
	}{
		{"Q09a", []chat.Message{system("s")}, -1},
		{"Q09b", []chat.Message{user("q"), result("", "x")}, 1},
		{"Q09c", []chat.Message{assistant("x"), user("q")}, 0},
		{"Q09d", []chat.Message{user("a"), user("b")}, 0},
		{"incorrect role", []chat.Message{user("a"), system("late")}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := react.Convert(react.VariantAPI, gw, tc.msgs)
			var ce *react.ConversationError
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Equal(t, tc.index, ce.Index)
			if v, ok := vs[tc.name]; ok {
				var w struct {
					HTTP400 string `json:"http400"`
				}
				require.NoError(t, json.Unmarshal(v.Want, &w))
				assert.NotEmpty(t, w.HTTP400, "Qwen rejects it too")
			}
		})
	}
}

// chatML renders a conversation as Qwen's make_context and
// text_complete_last_message do: with the generation prompt when it ends
// with a user message, with the last assistant message left open otherwise.
func chatML(msgs []chat.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("<|im_start|>" + string(m.Role) + "\n" + m.Text())
		if i < len(msgs)-1 || m.Role != chat.RoleAssistant {
			b.WriteString("<|im_end|>")
		}
	}
	if msgs[len(msgs)-1].Role != chat.RoleAssistant {
		b.WriteString("\n<|im_start|>assistant\n")
	}
	return b.String()
}

func TestConvertChatMLQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	gs := []react.Tool{googleSearch(t)}
	tests := []struct {
		name    string
		variant react.Variant
		tools   []react.Tool
		msgs    []chat.Message
	}{
		{"Q05b", react.VariantAPI, []react.Tool{getWeather(t)}, []chat.Message{
			user("Weather in Paris?"),
			call("I should call the weather API.", "c1", "get_weather", `{"city": "Paris"}`),
			result("c1", `{"temp": 20}`)}},
		{"Q19", react.VariantDemo, gs, []chat.Message{user("画只猫")}},
		{"Q19b", react.VariantDemo, gs, []chat.Message{user("你好"), assistant("你好！"), user("画只猫")}},
		{"Q19c", react.VariantDemo, gs, []chat.Message{user("q1"), assistant("a1"), user("q2"), assistant("a2"), user("q3")}},
		{"Q20", react.VariantAPI, nil, []chat.Message{user("q1"), assistant("a1"), user("q2")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := react.Convert(tc.variant, tc.tools, tc.msgs)
			require.NoError(t, err)
			assert.Equal(t, wantString(t, vs, tc.name), chatML(got), "input: %s", vs[tc.name].Input)
		})
	}
}

func TestConvertSeedDocument(t *testing.T) {
	d := loadSeed(t)
	var reply react.Reply
	reply, err := react.ParseReply(d.Reply, d.Tools)
	require.NoError(t, err)
	call := reply.Message()
	call.ToolCalls[0].ID = "c1"
	got, err := react.Convert(react.VariantDoc, d.Tools, []chat.Message{user(d.Query), call, result("c1", d.Observation)})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, d.Prompt, got[1].Text())
	// The seed's second prompt is the same exchange written as one text.
	assert.Equal(t, d.Prompt2+"\nThought:", got[1].Text()+"\n"+got[2].Text())
}

func TestConvertParallelCalls(t *testing.T) {
	m := assistant("Both cities.")
	m.ToolCalls = []chat.ToolCall{
		{ID: "a", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "b", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Rome"}`)},
	}
	got, err := react.Convert(react.VariantAPI, []react.Tool{getWeather(t)},
		[]chat.Message{user("Paris and Rome?"), m, result("b", "25C"), result("a", "20C")})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "Thought: Both cities.\nAction: get_weather\nAction Input: {\"city\":\"Paris\"}\nObservation: 20C\n"+
		"Thought: \nAction: get_weather\nAction Input: {\"city\":\"Rome\"}\nObservation: 25C\nThought:", got[2].Text())
}
