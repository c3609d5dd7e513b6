// Command toolloop answers a currency question with a prompt directory
// embedded in the binary, rolemark, and any OpenAI-compatible server, running
// the model's tool calls until it answers.
//
//	OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=x MODEL=qwen3:8b go run . "What is 100 EUR in USD?"
//
// OPENAI_BASE_URL and OPENAI_API_KEY are read by openai-go; MODEL, when set,
// replaces the model the prompt's front matter names.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/rolemark/rolemark/chat"
	rmopenai "github.com/rolemark/rolemark/connect/openai"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

// prompts holds the prompt directory. The all: prefix matters: without it
// //go:embed leaves out files whose names start with _ — the partials.
//
//go:embed all:prompts
var prompts embed.FS

// earlier is the conversation so far, which the template places with
// {{history}}.
var earlier = []chat.Message{
	chat.Text(chat.RoleUser, "Do you change money?"),
	chat.Text(chat.RoleAssistant, "Yes, at today's rate and without a fee."),
}

// rates stands in for a real rate service.
func getRate(args json.RawMessage) (string, error) {
	var in struct{ Currency string }
	if err := json.Unmarshal(args, &in); err != nil {
		return "", err
	}
	rates := map[string]string{"EUR": "1.08", "GBP": "1.27", "JPY": "0.0067"}
	r, ok := rates[strings.ToUpper(in.Currency)]
	if !ok {
		return "", fmt.Errorf("no rate for %q", in.Currency)
	}
	return r, nil
}

// maxTurns bounds the tool loop.
const maxTurns = 5

// run answers question, printing each tool call and the answer to out.
func run(ctx context.Context, client openai.Client, model, question string, out io.Writer) error {
	dir, err := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New()).LoadDir(prompts, "prompts")
	if err != nil {
		return err
	}
	tpl, ok := dir.Template("exchange")
	if !ok {
		return errors.New("prompts/exchange.hbs is missing")
	}
	msgs, err := tpl.Messages(ctx, map[string]any{"question": question}, engine.History(earlier))
	if err != nil {
		return err
	}
	settings := tpl.FrontMatter().Settings()
	if model != "" {
		settings.Model = model
	}
	for turn := 0; turn < maxTurns; turn++ {
		params, err := rmopenai.Params(msgs, settings)
		if err != nil {
			return err
		}
		completion, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			return err
		}
		reply, err := rmopenai.Reply(completion)
		if err != nil {
			return err
		}
		msgs = append(msgs, reply)
		if len(reply.ToolCalls) == 0 {
			_, err := fmt.Fprintln(out, reply.Text())
			return err
		}
		for _, tc := range reply.ToolCalls {
			result, err := getRate(tc.Arguments)
			if tc.Name != "get_rate" {
				err = fmt.Errorf("no tool %q", tc.Name)
			}
			if err != nil {
				result = "error: " + err.Error()
			}
			fmt.Fprintf(out, "tool %s(%s) = %s\n", tc.Name, tc.Arguments, result)
			msgs = append(msgs, chat.Message{Role: chat.RoleTool, ToolCallID: tc.ID, Content: []chat.Part{chat.TextPart(result)}})
		}
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}

func main() {
	question := "What is 100 EUR in USD?"
	if len(os.Args) > 1 {
		question = strings.Join(os.Args[1:], " ")
	}
	client := openai.NewClient(option.WithMaxRetries(1))
	if err := run(context.Background(), client, os.Getenv("MODEL"), question, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "toolloop:", err)
		os.Exit(1)
	}
}
