package langchaingo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/tmc/langchaingo/llms/openai"

	"github.com/rolemark/rolemark/chat"
	rmlangchaingo "github.com/rolemark/rolemark/connect/langchaingo"
)

// A tool loop's turn through langchaingo's OpenAI model: the reply's tool
// call comes back as a chat.Message to append to the history. The httptest
// server stands in for any OpenAI-compatible server.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1-mini","choices":[{"index":0,"finish_reason":"tool_calls",`+
			`"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]}}]}`)
	}))
	defer srv.Close()

	history := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a bank manager."),
		chat.Text(chat.RoleUser, "What is 100 EUR in USD?"),
	}
	settings := chat.Settings{
		Model:  "gpt-4.1-mini",
		Config: map[string]any{"temperature": 0},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency to USD",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}}}`)}},
	}
	content, err := rmlangchaingo.Messages(history)
	if err != nil {
		panic(err)
	}
	opts, err := rmlangchaingo.Options(settings)
	if err != nil {
		panic(err)
	}
	llm, err := openai.New(openai.WithBaseURL(srv.URL), openai.WithToken("sk-test"))
	if err != nil {
		panic(err)
	}
	resp, err := llm.GenerateContent(context.Background(), content, opts...)
	if err != nil {
		panic(err)
	}
	reply, err := rmlangchaingo.Reply(resp)
	if err != nil {
		panic(err)
	}
	history = append(history, reply)
	for _, tc := range reply.ToolCalls {
		fmt.Println(tc.ID, tc.Name, string(tc.Arguments))
	}
	fmt.Println(len(history), "messages")
	// Output:
	// call_1 get_rate {"currency":"EUR"}
	// 3 messages
}
