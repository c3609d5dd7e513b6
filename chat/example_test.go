package chat_test

import (
	"encoding/json"
	"fmt"

	"github.com/rolemark/rolemark/chat"
)

// conversation is a short tool-using exchange with an image.
func conversation() []chat.Message {
	return []chat.Message{
		chat.Text(chat.RoleSystem, "You are a bank manager."),
		{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{
			chat.TextPart("What is this note worth in dollars?"),
			{Type: chat.PartImage, URL: "https://example.com/note.jpg", Detail: "low"},
		}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
			{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)},
		}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1.08")}},
	}
}

func Example() {
	body, err := json.MarshalIndent(conversation(), "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(body))
	// Output:
	// [
	//   {
	//     "role": "system",
	//     "content": "You are a bank manager."
	//   },
	//   {
	//     "role": "user",
	//     "name": "alice",
	//     "content": [
	//       {
	//         "type": "text",
	//         "text": "What is this note worth in dollars?"
	//       },
	//       {
	//         "type": "image_url",
	//         "image_url": {
	//           "url": "https://example.com/note.jpg",
	//           "detail": "low"
	//         }
	//       }
	//     ]
	//   },
	//   {
	//     "role": "assistant",
	//     "content": null,
	//     "tool_calls": [
	//       {
	//         "id": "c1",
	//         "type": "function",
	//         "function": {
	//           "name": "get_rate",
	//           "arguments": "{\"currency\":\"EUR\"}"
	//         }
	//       }
	//     ]
	//   },
	//   {
	//     "role": "tool",
	//     "content": "1.08",
	//     "tool_call_id": "c1"
	//   }
	// ]
}

func ExampleToAnthropic() {
	req, err := chat.ToAnthropic(conversation())
	if err != nil {
		panic(err)
	}
	body, err := json.MarshalIndent(req, "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(body))
	// Output:
	// {
	//   "system": "You are a bank manager.",
	//   "messages": [
	//     {
	//       "role": "user",
	//       "content": [
	//         {
	//           "type": "text",
	//           "text": "What is this note worth in dollars?"
	//         },
	//         {
	//           "type": "image",
	//           "source": {
	//             "type": "url",
	//             "url": "https://example.com/note.jpg"
	//           }
	//         }
	//       ]
	//     },
	//     {
	//       "role": "assistant",
	//       "content": [
	//         {
	//           "type": "tool_use",
	//           "id": "c1",
	//           "name": "get_rate",
	//           "input": {
	//             "currency": "EUR"
	//           }
	//         }
	//       ]
	//     },
	//     {
	//       "role": "user",
	//       "content": [
	//         {
	//           "type": "tool_result",
	//           "tool_use_id": "c1",
	//           "content": "1.08"
	//         }
	//       ]
	//     }
	//   ]
	// }
}

func ExampleMessage_UnmarshalJSON() {
	var m chat.Message
	err := json.Unmarshal([]byte(`{"role":"user","content":[{"type":"text","text":"Hi"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}`), &m)
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Role, len(m.Content), m.Text(), m.TextOnly(), m.Content[1].MediaType)
	// Output: user 2 Hi false image/png
}

func ExampleParseDataURI() {
	uri := chat.DataURI("text/plain", []byte("hello"))
	mt, data, ok := chat.ParseDataURI(uri)
	fmt.Println(uri, mt, string(data), ok)
	// Output: data:text/plain;base64,aGVsbG8= text/plain hello true
}

// A whole request body: messages plus the model, its parameters, tools and
// the output wanted, as a template's front matter declares them.
func ExampleOpenAIBody() {
	settings := chat.Settings{
		Model:  "gpt-4.1-mini",
		Config: map[string]any{"temperature": 0.2, "maxOutputTokens": 200},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}}}`)}},
		ToolChoice: chat.ToolAuto,
	}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "What is 100 EUR in USD?")}
	body, err := chat.OpenAIBody(msgs, settings)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(body))

	settings.Config["topK"] = 40 // OpenAI has no top_k
	_, err = chat.OpenAIBody(msgs, settings)
	fmt.Println(err)
	// Output:
	// {"model":"gpt-4.1-mini","messages":[{"role":"user","content":"What is 100 EUR in USD?"}],"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate of a currency","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],"tool_choice":"auto","max_completion_tokens":200,"temperature":0.2}
	// chat: openai request: config.topK: has no openai equivalent
}

// Anthropic's request needs max_tokens; a JSON schema becomes its structured
// output.
func ExampleAnthropicBody() {
	settings := chat.Settings{
		Model:  "claude-sonnet-4-5",
		Config: map[string]any{"max_tokens": 512},
		Output: chat.Output{Format: chat.OutputJSON,
			Schema: json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}}}`)},
	}
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "Answer in JSON."),
		chat.Text(chat.RoleUser, "What is 100 EUR in USD?"),
	}
	body, err := chat.AnthropicBody(msgs, settings)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(body))
	// Output:
	// {"model":"claude-sonnet-4-5","max_tokens":512,"system":"Answer in JSON.","messages":[{"role":"user","content":[{"type":"text","text":"What is 100 EUR in USD?"}]}],"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"usd":{"type":"number"}}}}}}
}
