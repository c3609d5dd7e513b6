package react_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

func ExampleParseReply() {
	reply := "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\n"
	r, err := react.ParseReply(reply, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Thought)
	fmt.Println(r.ToolCall.Name, string(r.ToolCall.Arguments))
	// Output:
	// I need the weather.
	// get_weather {"city": "Paris"}
}

func ExamplePrompt() {
	tools, err := react.ParseTools([]byte(`[{"type": "function", "function": {
		"name": "get_weather", "description": "Get the current weather",
		"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]`))
	if err != nil {
		panic(err)
	}
	prompt := react.Prompt(react.VariantDoc, tools, "Weather in Paris?")
	lines := strings.Split(prompt, "\n")
	fmt.Println(lines[2])
	fmt.Println(lines[len(lines)-1])
	// Output:
	// get_weather: Call this tool to interact with the get_weather API. What is the get_weather API useful for? Get the current weather Parameters: {"type": "object", "properties": {"city": {"type": "string"}}} Format the arguments as a JSON object.
	// Question: Weather in Paris?
}

func ExampleStopWriter() {
	var out strings.Builder
	w := react.NewStopWriter(&out)
	for _, chunk := range []string{"Action Input: {}\nObs", "ervation: made up"} {
		_, _ = w.Write([]byte(chunk)) // a streamed reply, chunk by chunk
		fmt.Printf("%q %v\n", out.String(), w.Stopped())
	}
	_ = w.Close()
	fmt.Printf("%q\n", out.String())
	// Output:
	// "Action Input: {}\n" false
	// "Action Input: {}\n" true
	// "Action Input: {}\n"
}

func ExampleRun() {
	tools := []react.Tool{{
		NameForModel:        "get_weather",
		DescriptionForModel: "Get the current weather",
		Parameters:          json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}}`),
	}}
	// A scripted model; a real one renders req.Messages in its chat format
	// and generates with req.Stop.
	replies := []string{
		"Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}",
		" I now know the final answer.\nFinal Answer: 20°C and sunny.",
	}
	model := func(ctx context.Context, req react.Request) (string, error) {
		r := replies[0]
		replies = replies[1:]
		return r, nil
	}
	exec := func(ctx context.Context, call chat.ToolCall) (string, error) {
		return `{"temp_c": 20, "sky": "sunny"}`, nil
	}
	transcript, err := react.Run(context.Background(), model, exec, tools, "Weather in Paris?")
	if err != nil {
		panic(err)
	}
	out, _ := json.MarshalIndent(transcript, "", "  ")
	fmt.Println(string(out))
	// Output:
	// [
	//   {
	//     "role": "user",
	//     "content": "Weather in Paris?"
	//   },
	//   {
	//     "role": "assistant",
	//     "content": "I need the weather.",
	//     "tool_calls": [
	//       {
	//         "id": "call_1",
	//         "type": "function",
	//         "function": {
	//           "name": "get_weather",
	//           "arguments": "{\"city\": \"Paris\"}"
	//         }
	//       }
	//     ]
	//   },
	//   {
	//     "role": "tool",
	//     "content": "{\"temp_c\": 20, \"sky\": \"sunny\"}",
	//     "tool_call_id": "call_1"
	//   },
	//   {
	//     "role": "assistant",
	//     "content": "20°C and sunny."
	//   }
	// ]
}

func ExampleConvert() {
	tools := []react.Tool{{NameForModel: "get_weather", DescriptionForModel: "Get the current weather"}}
	call := chat.Text(chat.RoleAssistant, "I need the weather.")
	call.ToolCalls = []chat.ToolCall{{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)}}
	result := chat.Text(chat.RoleTool, `{"temp_c": 20}`)
	result.ToolCallID = "c1"

	msgs, err := react.Convert(react.VariantAPI, tools, []chat.Message{
		chat.Text(chat.RoleUser, "Weather in Paris?"), call, result,
	})
	if err != nil {
		panic(err)
	}
	for _, m := range msgs {
		text := m.Text()
		if i := strings.LastIndex(text, "\n\nQuestion: "); i >= 0 {
			text = "[instruction]" + text[i:]
		}
		fmt.Printf("%s: %s\n---\n", m.Role, text)
	}
	// Output:
	// system: You are a helpful assistant.
	// ---
	// user: [instruction]
	//
	// Question: Weather in Paris?
	// ---
	// assistant: Thought: I need the weather.
	// Action: get_weather
	// Action Input: {"city": "Paris"}
	// Observation: {"temp_c": 20}
	// Thought:
	// ---
}
