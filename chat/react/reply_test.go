package react_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

func TestParseReplyQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	tests := []struct {
		name  string
		reply string
	}{
		{"Q11", "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\n"},
		{"Q11b", "Thought: X\nAction: f\nAction Input: {\"a\": 1}\nObservation: fake"},
		{"Q12", "Thought: I now know the final answer.\nFinal Answer: It is 20C."},
		{"Q13", "Hello there"},
		{"Q13b", "Final Answer: 42"},
		{"Q14", "Action: f\nAction Input: {}"},
		{"Q15", "\nAction: f\nAction Input: {}"},
		{"Q15b", "Thought: a\nFinal Answer: one\nThought: b\nFinal Answer: two"},
		{"Q15c", "Thought: a\nAction: f\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want struct {
				Content      string `json:"content"`
				FunctionCall *struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function_call"`
				FinishReason string `json:"finish_reason"`
			}
			require.NoError(t, json.Unmarshal(vs[tc.name].Want, &want))
			got, err := react.ParseReply(tc.reply, nil)
			switch {
			case want.FunctionCall != nil:
				require.NoError(t, err)
				require.NotNil(t, got.ToolCall)
				assert.Equal(t, want.Content, got.Thought)
				assert.Equal(t, want.FunctionCall.Name, got.ToolCall.Name)
				assert.Equal(t, want.FunctionCall.Arguments, string(got.ToolCall.Arguments))
				assert.Equal(t, "function_call", want.FinishReason)
			default:
				assert.Nil(t, got.ToolCall)
				assert.Equal(t, want.Content, got.FinalAnswer)
				var fe *react.FormatError
				if errors.As(err, &fe) {
					// Neither an action nor a final answer: Qwen passes
					// the text on as it is.
					assert.Equal(t, want.Content, fe.Reply)
				} else {
					require.NoError(t, err)
				}
			}
		})
	}
}

func TestParseReplyNeither(t *testing.T) {
	for _, reply := range []string{"Hello there", "Final Answer: 42", "Action: f\nAction Input: {}", "Thought: a\nAction: f\n", ""} {
		_, err := react.ParseReply(reply, nil)
		var fe *react.FormatError
		require.True(t, errors.As(err, &fe), "%q: %v", reply, err)
		assert.Equal(t, reply, fe.Reply)
		// The message is for the model to read as an observation.
		assert.Equal(t, `Invalid format: write "Action:" and "Action Input:" lines to use a tool, or a "Final Answer:" line to answer.`, err.Error())
	}
}

func TestParseReplyErrors(t *testing.T) {
	tools := []react.Tool{{NameForModel: "get_weather"}, {NameForModel: "search"}}
	t.Run("unknown tool", func(t *testing.T) {
		got, err := react.ParseReply("Thought: x\nAction: get_time\nAction Input: {}", tools)
		var ue *react.UnknownToolError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Equal(t, "get_time", ue.Name)
		assert.Equal(t, []string{"get_weather", "search"}, ue.Known)
		assert.Equal(t, "get_time is not a valid tool, try one of [get_weather, search].", err.Error())
		require.NotNil(t, got.ToolCall)
		assert.Equal(t, "get_time", got.ToolCall.Name)
	})
	t.Run("arguments not JSON", func(t *testing.T) {
		got, err := react.ParseReply("Thought: x\nAction: search\nAction Input: {query: cats}\n", tools)
		var ae *react.ArgumentsError
		require.True(t, errors.As(err, &ae), "%v", err)
		assert.Equal(t, "search", ae.Name)
		assert.Equal(t, "{query: cats}", ae.Arguments)
		assert.Equal(t, "The Action Input for search is not valid JSON (invalid character 'q' looking for beginning of object key string). Format the arguments as a JSON object.", err.Error())
		var se *json.SyntaxError
		assert.True(t, errors.As(err, &se))
		require.NotNil(t, got.ToolCall)
	})
	t.Run("empty arguments", func(t *testing.T) {
		_, err := react.ParseReply("\nAction: search\nAction Input:", tools)
		var ae *react.ArgumentsError
		assert.True(t, errors.As(err, &ae), "%v", err)
	})
	t.Run("any tool without a list", func(t *testing.T) {
		_, err := react.ParseReply("\nAction: anything\nAction Input: {}", nil)
		assert.NoError(t, err)
	})
}

func TestReplyMessage(t *testing.T) {
	r, err := react.ParseReply("Thought: need it\nAction: f\nAction Input: {\"a\": 1}", nil)
	require.NoError(t, err)
	want := assistant("need it")
	want.ToolCalls = []chat.ToolCall{{Name: "f", Arguments: json.RawMessage(`{"a": 1}`)}}
	assert.Equal(t, want, r.Message())

	r, err = react.ParseReply("Thought: done\nFinal Answer: 42", nil)
	require.NoError(t, err)
	assert.Equal(t, "done", r.Thought)
	assert.Equal(t, assistant("42"), r.Message())
}

func TestLatestActionQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	tests := []struct {
		name string
		text string
	}{
		{"Q18", "Thought: t\nAction: f\nAction Input: {\"a\": 1}\nObservation:"},
		{"Q18b", "Thought: t\nAction: f\nAction Input: {\"a\": 1}  \n"},
		{"Q18c", "Thought: a\nAction: f\nAction Input: 1\nObservation: r\nThought: b\nAction: g\nAction Input: 2\n"},
		{"Q18d", "Thought: done\nFinal Answer: x"},
		{"Q18e", "Thought: t\nAction: f\nAction Input: {\"a\": 1}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			require.NoError(t, json.Unmarshal(vs[tc.name].Want, &want))
			name, args, rest, ok := react.LatestAction(tc.text)
			assert.Equal(t, want[0] != "", ok)
			assert.Equal(t, want[0], name)
			assert.Equal(t, want[1], args)
			if len(want) == 3 {
				assert.Equal(t, want[2], rest)
			}
		})
	}
}

func TestStopWordsQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	t.Run("Q16", func(t *testing.T) {
		var want []string
		require.NoError(t, json.Unmarshal(vs["Q16"].Want, &want))
		assert.Equal(t, want, react.AddStopWordVariants([]string{"\nObservation:", "Observation:", "\n\nEND"}))
	})
	t.Run("Q16b", func(t *testing.T) {
		assert.Equal(t, "null", string(vs["Q16b"].Want))
		assert.Nil(t, react.AddStopWordVariants(nil))
	})
	t.Run("Q17", func(t *testing.T) {
		assert.Equal(t, wantString(t, vs, "Q17"), react.Cut("Thought: t\nAction: f\nAction Input: {}\nObservation: x", []string{"Observation:"}))
	})
	assert.Equal(t, []string{"Observation:", "Observation:\n"}, react.StopWords())
}
