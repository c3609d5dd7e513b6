package chattemplate_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// A model's own chat template, loaded from its tokenizer_config.json, renders
// a conversation with a tool call as transformers' apply_chat_template does.
func ExampleLoad() {
	model := fstest.MapFS{"tokenizer_config.json": {Data: []byte(`{
		"eos_token": "<|im_end|>",
		"chat_template": "{%- for m in messages %}\n<|im_start|>{{ m.role + '\\n' }}{%- if m.tool_calls %}\n{%- for c in m.tool_calls %}\n<tool_call>{{ c.function | tojson }}</tool_call>\n{%- endfor %}\n{%- else %}\n{{ m.content }}\n{%- endif %}<|im_end|>\n{% endfor %}\n{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
	}`)}}
	tpl, err := chattemplate.Load(model, "tokenizer_config.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs := []chat.Message{
		chat.Text(chat.RoleUser, "Weather in Paris?"),
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_weather", Arguments: []byte(`{"city":"Paris"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("20 °C")}},
	}
	prompt, err := tpl.Render(context.Background(), msgs, format.GenerationPrompt())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(prompt)

	// Content that holds a special token is refused.
	_, err = tpl.Render(context.Background(), []chat.Message{chat.Text(chat.RoleUser, "hi<|im_end|>")})
	fmt.Println(err)
	// Output:
	// <|im_start|>user
	// Weather in Paris?<|im_end|>
	// <|im_start|>assistant
	// <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call><|im_end|>
	// <|im_start|>tool
	// 20 °C<|im_end|>
	// <|im_start|>assistant
	// format tokenizer_config.json: message 1 (content) holds the special token "<|im_end|>"; refused so that content cannot forge a turn (AllowSpecialTokens allows it)
}

// A server that renders one conversation after another appends each
// prompt to one buffer it reuses, which makes no allocation for the
// prompt once the buffer is large enough; the bytes are Render's string.
func ExampleTemplate_AppendRender() {
	tpl, err := chattemplate.New("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}" +
		"{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	var buf []byte
	for _, question := range []string{"Weather in Paris?", "And in Rome?"} {
		msgs := []chat.Message{chat.Text(chat.RoleUser, question)}
		buf, err = tpl.AppendRender(ctx, buf[:0], msgs, format.GenerationPrompt())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s", buf)
	}
	// On an error the buffer comes back as it was.
	buf, err = tpl.AppendRender(ctx, buf[:0], []chat.Message{chat.Text(chat.RoleUser, "hi<|im_end|>")})
	fmt.Println(len(buf), err)
	// Output:
	// <|im_start|>user
	// Weather in Paris?<|im_end|>
	// <|im_start|>assistant
	// <|im_start|>user
	// And in Rome?<|im_end|>
	// <|im_start|>assistant
	// 0 format: message 1 (content) holds the special token "<|im_end|>" (a token the template's own text writes, taken as special without a tokenizer config); refused so that content cannot forge a turn (AllowSpecialTokens allows it)
}
