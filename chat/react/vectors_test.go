package react_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

// qwenVector is one of the vectors of testdata/qwen_vectors.json: Qwen's own
// code run on the input described, and what it returned.
type qwenVector struct {
	Input string          `json:"input"`
	Want  json.RawMessage `json:"want"`
}

func loadVectors(t testing.TB) map[string]qwenVector {
	t.Helper()
	b, err := os.ReadFile("testdata/qwen_vectors.json")
	require.NoError(t, err)
	var f struct {
		Vectors map[string]qwenVector `json:"vectors"`
	}
	require.NoError(t, json.Unmarshal(b, &f))
	return f.Vectors
}

// wantString returns the vector's expected output, a string.
func wantString(t testing.TB, vs map[string]qwenVector, id string) string {
	t.Helper()
	v, ok := vs[id]
	require.True(t, ok, "vector %s missing", id)
	var s string
	require.NoError(t, json.Unmarshal(v.Want, &s), "vector %s", id)
	return s
}

// The tools of the vectors: get_weather in OpenAI's form, google_search in
// Qwen's.
const (
	getWeatherJSON   = `{"name":"get_weather","description":"Get the current weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}`
	googleSearchJSON = `{"name_for_human":"谷歌搜索","name_for_model":"google_search","description_for_model":"谷歌搜索是一个通用搜索引擎。 Format the arguments as a JSON object.","parameters":[{"name":"search_query","description":"搜索关键词或短语","required":true,"schema":{"type":"string"}}]}`
)

func getWeather(t testing.TB) react.Tool {
	t.Helper()
	var ct chat.Tool
	require.NoError(t, json.Unmarshal([]byte(getWeatherJSON), &ct))
	return react.FromChat(ct)
}

func googleSearch(t testing.TB) react.Tool {
	t.Helper()
	var rt react.Tool
	require.NoError(t, json.Unmarshal([]byte(googleSearchJSON), &rt))
	return rt
}

// seedDoc is testdata/react_prompt_md.json: the worked example of Qwen's
// examples/react_prompt.md.
type seedDoc struct {
	Tools       []react.Tool `json:"tools"`
	Query       string       `json:"query"`
	Prompt      string       `json:"prompt"`
	Reply       string       `json:"reply"`
	Observation string       `json:"observation"`
	Prompt2     string       `json:"prompt2"`
	FinalReply  string       `json:"final_reply"`
}

func loadSeed(t testing.TB) seedDoc {
	t.Helper()
	b, err := os.ReadFile("testdata/react_prompt_md.json")
	require.NoError(t, err)
	var d seedDoc
	require.NoError(t, json.Unmarshal(b, &d))
	return d
}
