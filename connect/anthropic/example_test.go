package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/rolemark/rolemark/chat"
	rmanthropic "github.com/rolemark/rolemark/connect/anthropic"
)

// A tool loop's turn through the official client: the reply's tool_use
// block comes back as a tool call to append to the history. The httptest
// server stands in for the Messages API.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","stop_reason":"tool_use",`+
			`"content":[{"type":"tool_use","id":"toolu_1","name":"get_rate","input":{"currency":"EUR"}}],"usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer srv.Close()

	history := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a bank manager."),
		chat.Text(chat.RoleUser, "What is 100 EUR in USD?"),
	}
	settings := chat.Settings{
		Model:  "claude-sonnet-4-5",
		Config: map[string]any{"max_tokens": 512},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency to USD",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}}}`)}},
	}
	params, err := rmanthropic.Params(history, settings)
	if err != nil {
		panic(err)
	}
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-test"))
	reply, err := client.Messages.New(context.Background(), params)
	if err != nil {
		panic(err)
	}
	msg, err := rmanthropic.Reply(reply)
	if err != nil {
		panic(err)
	}
	history = append(history, msg)
	for _, tc := range msg.ToolCalls {
		fmt.Println(tc.ID, tc.Name, string(tc.Arguments))
	}
	fmt.Println(len(history), "messages")
	// Output:
	// toolu_1 get_rate {"currency":"EUR"}
	// 3 messages
}
