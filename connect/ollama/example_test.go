package ollama_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/ollama/ollama/api"

	"github.com/rolemark/rolemark/chat"
	rmollama "github.com/rolemark/rolemark/connect/ollama"
)

// A tool loop's turn through Ollama's client: the reply's tool call comes
// back as a chat.Message to append to the history. The httptest server
// stands in for an Ollama server.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"model":"qwen3:8b","created_at":"2026-11-20T09:12:44Z","done":true,"message":{"role":"assistant","content":"",`+
			`"tool_calls":[{"id":"call_1","function":{"index":0,"name":"get_rate","arguments":{"currency":"EUR"}}}]}}`)
	}))
	defer srv.Close()

	history := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a bank manager."),
		chat.Text(chat.RoleUser, "What is 100 EUR in USD?"),
	}
	settings := chat.Settings{
		Model:  "qwen3:8b",
		Config: map[string]any{"temperature": 0, "num_ctx": 8192},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency to USD",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}}}`)}},
	}
	req, err := rmollama.ChatRequest(history, settings)
	if err != nil {
		panic(err)
	}
	base, _ := url.Parse(srv.URL)
	var reply chat.Message
	err = api.NewClient(base, http.DefaultClient).Chat(context.Background(), req, func(r api.ChatResponse) error {
		reply, err = rmollama.Reply(r)
		return err
	})
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
