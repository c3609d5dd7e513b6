package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

var (
	msgs = []chat.Message{chat.Text(chat.RoleSystem, "Be brief."), chat.Text(chat.RoleUser, "Rate for EUR?")}
	tool = chat.Tool{Name: "get_rate", Description: "Exchange rate", Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}}}`)}
)

// standIn serves one streamed reply and records the request it received.
type standIn struct {
	method, path string
	header       http.Header
	body         string
}

func (s *standIn) server(t *testing.T, status int, events string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.method, s.path, s.header, s.body = r.Method, r.URL.Path, r.Header.Clone(), string(b)
		if status != 200 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, events)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range strings.SplitAfter(events, "\n\n") {
			fmt.Fprint(w, chunk)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

const openaiStream = `data: {"id":"x","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

data: {"choices":[{"index":0,"delta":{"content":"Let me "}}]}

: keep-alive

data: {"choices":[{"index":0,"delta":{"content":"check."}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_rate","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"currency\""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\"EUR\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: {"choices":[],"usage":{"prompt_tokens":31,"completion_tokens":12,"total_tokens":43}}

data: [DONE]

`

func TestStreamOpenAI(t *testing.T) {
	var s standIn
	srv := s.server(t, 200, openaiStream)
	var events []Event
	res, err := Stream(context.Background(), srv.Client(), Endpoint{Protocol: OpenAI, BaseURL: srv.URL + "/v1/", APIKey: "sk-test"},
		msgs, chat.Settings{Model: "gpt-test", Config: map[string]any{"temperature": 0.2, "stream": false}, Tools: []chat.Tool{tool}, ToolChoice: chat.ToolAuto},
		func(e Event) { events = append(events, e) })
	require.NoError(t, err)

	assert.Equal(t, "POST", s.method)
	assert.Equal(t, "/v1/chat/completions", s.path)
	assert.Equal(t, "Bearer sk-test", s.header.Get("Authorization"))
	assert.Equal(t, "application/json", s.header.Get("Content-Type"))
	assert.JSONEq(t, `{"model":"gpt-test","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Rate for EUR?"}],
		"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],
		"tool_choice":"auto","temperature":0.2,"stream":true,"stream_options":{"include_usage":true}}`, s.body)

	assert.Equal(t, "Let me check.", res.Text)
	assert.Equal(t, []chat.ToolCall{{ID: "call_1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}, res.ToolCalls)
	assert.Equal(t, 31, res.InputTokens)
	assert.Equal(t, 12, res.OutputTokens)
	assert.Equal(t, "tool_calls", res.StopReason)
	assert.Positive(t, res.Latency)
	assert.Equal(t, []Event{
		{Type: "text", Text: "Let me "},
		{Type: "text", Text: "check."},
		{Type: "tool_call", ID: "call_1", Name: "get_rate"},
		{Type: "tool_call", Arguments: `{"currency"`},
		{Type: "tool_call", Arguments: `:"EUR"}`},
		{Type: "stop", StopReason: "tool_calls"},
		{Type: "usage", InputTokens: 31, OutputTokens: 12},
	}, events)
}

func TestStreamOpenAIWithoutKey(t *testing.T) {
	var s standIn
	srv := s.server(t, 200, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n")
	res, err := Stream(context.Background(), srv.Client(), Endpoint{Protocol: OpenAI, BaseURL: srv.URL}, msgs, chat.Settings{Model: "llama3"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Text)
	assert.Empty(t, s.header.Values("Authorization"))
	assert.Equal(t, "/chat/completions", s.path)
}

const anthropicStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":25,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_rate","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"currency\": \"EUR\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":40}}

event: message_stop
data: {"type":"message_stop"}

`

func TestStreamAnthropic(t *testing.T) {
	var s standIn
	srv := s.server(t, 200, anthropicStream)
	var events []Event
	res, err := Stream(context.Background(), srv.Client(), Endpoint{Protocol: Anthropic, BaseURL: srv.URL, APIKey: "ak-test"},
		msgs, chat.Settings{Model: "claude-test", Config: map[string]any{"maxOutputTokens": 256}, Tools: []chat.Tool{tool}, ToolChoice: chat.ToolRequired},
		func(e Event) { events = append(events, e) })
	require.NoError(t, err)

	assert.Equal(t, "/v1/messages", s.path)
	assert.Equal(t, "ak-test", s.header.Get("x-api-key"))
	assert.Equal(t, AnthropicVersion, s.header.Get("anthropic-version"))
	assert.Empty(t, s.header.Values("Authorization"))
	assert.JSONEq(t, `{"model":"claude-test","max_tokens":256,"system":"Be brief.","messages":[{"role":"user","content":[{"type":"text","text":"Rate for EUR?"}]}],
		"tools":[{"name":"get_rate","description":"Exchange rate","input_schema":{"type":"object","properties":{"currency":{"type":"string"}}}}],
		"tool_choice":{"type":"any"},"stream":true}`, s.body)

	assert.Equal(t, "Checking", res.Text)
	assert.Equal(t, []chat.ToolCall{{ID: "toolu_1", Name: "get_rate", Arguments: json.RawMessage(`{"currency": "EUR"}`)}}, res.ToolCalls)
	assert.Equal(t, 25, res.InputTokens)
	assert.Equal(t, 40, res.OutputTokens)
	assert.Equal(t, "tool_use", res.StopReason)
	assert.Equal(t, []Event{
		{Type: "usage", InputTokens: 25, OutputTokens: 1},
		{Type: "text", Text: "Checking"},
		{Type: "tool_call", Index: 0, ID: "toolu_1", Name: "get_rate"},
		{Type: "tool_call", Index: 0, Arguments: `{"currency": "EUR"}`},
		{Type: "stop", StopReason: "tool_use"},
		{Type: "usage", InputTokens: 25, OutputTokens: 40},
	}, events)
}

func TestStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		protocol string
		status   int
		body     string
		want     string
	}{
		{"openai status", OpenAI, 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`,
			"the endpoint answered 401 Unauthorized: Incorrect API key provided"},
		{"anthropic status", Anthropic, 400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`,
			"the endpoint answered 400 Bad Request: max_tokens: too large"},
		{"plain status", OpenAI, 502, `bad gateway`, "the endpoint answered 502 Bad Gateway: bad gateway"},
		{"anthropic stream error", Anthropic, 200, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
			"the model's stream reported: Overloaded"},
		{"openai stream error", OpenAI, 200, "data: {\"error\":{\"message\":\"context too long\"}}\n\n", "the model's stream reported: context too long"},
		{"not json", OpenAI, 200, "data: {oops\n\n", "run: a chunk of the stream is not JSON: invalid character 'o' looking for beginning of object key string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s standIn
			srv := s.server(t, tc.status, tc.body)
			_, err := Stream(context.Background(), srv.Client(), Endpoint{Protocol: tc.protocol, BaseURL: srv.URL, APIKey: "k"},
				msgs, chat.Settings{Model: "m", Config: map[string]any{"max_tokens": 10}}, nil)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestBodyRefusesWhatTheBuilderRefuses(t *testing.T) {
	_, err := Body(Anthropic, msgs, chat.Settings{Model: "claude"})
	var re *chat.RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "config.max_tokens", re.Field)
	_, err = Body("gemini", msgs, chat.Settings{Model: "g"})
	assert.EqualError(t, err, `run: unknown protocol "gemini"`)
}

func TestEndpointURL(t *testing.T) {
	assert.Equal(t, "https://api.openai.com/v1/chat/completions", Endpoint{Protocol: OpenAI}.URL())
	assert.Equal(t, "https://api.anthropic.com/v1/messages", Endpoint{Protocol: Anthropic}.URL())
	assert.Equal(t, "http://localhost:11434/v1/chat/completions", Endpoint{Protocol: OpenAI, BaseURL: "http://localhost:11434/v1/"}.URL())
}
