package batch

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/engine"
)

// The outputs below are Appends that write one JSON line (ending in "\n")
// per row, for RenderAppend (or, through Append.Convert, RenderFunc). Their
// JSON keeps <, > and & as they are.

// OpenAI writes {"messages": […]} per row: the OpenAI chat-completions
// messages, which is also the line OpenAI's chat fine-tuning takes.
func OpenAI() Append {
	return func(_ context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		b, err := appendMessages(append(b, `{"messages":`...), msgs)
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}
}

// RequestOptions configure the batch request outputs.
type RequestOptions struct {
	// Model overrides the front matter's model.
	Model string
	// IDKey names the row variable whose value becomes the custom_id; a row
	// without it fails. When empty, the custom_id is "row-N" with N the
	// row's number from 1.
	IDKey string
}

// OpenAIBatch writes per row the request line OpenAI's Batch API (and the
// compatible ones) takes: {"custom_id", "method": "POST", "url":
// "/v1/chat/completions", "body"}, the body being chat.OpenAIBody of the
// messages and the front matter's settings (model, config, tools, tool
// choice, output). It fails when there is no model.
func OpenAIBatch(fm *engine.FrontMatter, o RequestOptions) (Append, error) {
	s, err := requestSettings(fm, o, "openai-batch")
	if err != nil {
		return nil, err
	}
	return func(_ context.Context, b []byte, index int, row Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"custom_id":`...)
		b, err := appendCustomID(b, o.IDKey, index, row)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"method":"POST","url":"/v1/chat/completions","body":`...)
		b, err = chat.AppendOpenAIBody(b, msgs, s)
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}, nil
}

// AnthropicBatch writes per row one item of the requests array of
// Anthropic's Message Batches API: {"custom_id", "params"}, the params being
// chat.AnthropicBody of the messages and the front matter's settings. It
// fails when there is no model or no max_tokens in the config.
func AnthropicBatch(fm *engine.FrontMatter, o RequestOptions) (Append, error) {
	s, err := requestSettings(fm, o, "anthropic-batch")
	if err != nil {
		return nil, err
	}
	if _, err := chat.AnthropicBody(nil, s); err != nil {
		var re *chat.RequestError
		if errors.As(err, &re) && re.Field != "messages" {
			return nil, fmt.Errorf("anthropic-batch: %w", err)
		}
	}
	return func(_ context.Context, b []byte, index int, row Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"custom_id":`...)
		b, err := appendCustomID(b, o.IDKey, index, row)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"params":`...)
		b, err = chat.AppendAnthropicBody(b, msgs, s)
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}, nil
}

// requestSettings are the front matter's request settings, with the model
// overridden by o; it fails when there is no model.
func requestSettings(fm *engine.FrontMatter, o RequestOptions, what string) (chat.Settings, error) {
	s := fm.Settings()
	if o.Model != "" {
		s.Model = o.Model
	}
	if s.Model == "" {
		return s, fmt.Errorf("%s needs a model: write model: in the template's front matter or pass one", what)
	}
	return s, nil
}

// lineSize guesses the size of a line holding msgs.
func lineSize(msgs []chat.Message) int {
	n := 192
	for i := range msgs {
		n += 48 + len(msgs[i].Text()) + len(msgs[i].Text())/16
	}
	return n
}

// appendCustomID appends the custom_id of a row as a JSON string: the
// row's variable key, or "row-N" when key is empty. A row without the
// variable, or whose value is null, an object or a list, is an error: a
// custom_id made up for it would not match the row's own id.
func appendCustomID(b []byte, key string, index int, row Row) ([]byte, error) {
	if key == "" {
		b = append(b, `"row-`...)
		b = strconv.AppendInt(b, int64(index)+1, 10)
		return append(b, '"'), nil
	}
	switch v := row.Vars[key].(type) {
	case string:
		return appendString(b, v), nil
	case float64:
		return appendString(b, strconv.FormatFloat(v, 'f', -1, 64)), nil
	case bool, int, int64, int32, uint, uint64, uint32:
		return appendString(b, fmt.Sprint(v)), nil
	case nil:
		if _, ok := row.Vars[key]; ok {
			return nil, fmt.Errorf("the id field %q is null", key)
		}
		return nil, fmt.Errorf("no id field %q in the row", key)
	default:
		return nil, fmt.Errorf("the id field %q holds a %T, not a string or a number", key, v)
	}
}

// Prompt writes {"prompt": …} per row: the conversation in the chat format
// f, ending with the generation prompt, as a local model reads it.
func Prompt(f *format.Format, tools []chat.Tool) Append {
	opts := format.Options{AddGenerationPrompt: true, Tools: tools}
	return func(_ context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"prompt":`...)
		b, err := appendStringOf(b, func(b []byte) ([]byte, error) { return f.AppendRender(b, msgs, opts) })
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}
}

// appendStringOf appends, as a JSON string, the text that write appends to
// b. The text is written at the end of b, escaped after itself, and the
// escaped form moved over it: no string is allocated for it.
func appendStringOf(b []byte, write func([]byte) ([]byte, error)) ([]byte, error) {
	start := len(b)
	b, err := write(b)
	if err != nil {
		return nil, err
	}
	end := len(b)
	// text is read while the escaped form is appended after it (or to a
	// new array), and not after its bytes are written over.
	text := unsafe.String(unsafe.SliceData(b[start:]), end-start)
	b = appendString(b, text)
	return b[:start+copy(b[start:], b[end:])], nil
}

// SFTOutput writes {"text": …, "assistant_spans": [[start, end], …]} per
// row: the conversation in the chat format f without a generation prompt,
// and the spans Spans finds.
func SFTOutput(f *format.Format, tools []chat.Tool, o SFTOptions) Append {
	return func(_ context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		text, spans, err := Spans(f, msgs, tools, o)
		if err != nil {
			return nil, err
		}
		b = append(b, `{"text":`...)
		b = appendString(b, text)
		b = append(b, `,"assistant_spans":[`...)
		for i, sp := range spans {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(sp[0]), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(sp[1]), 10)
			b = append(b, ']')
		}
		return append(b, "]}\n"...), nil
	}
}

// OutputOptions configure NewOutput.
type OutputOptions struct {
	// ChatFormat names the chat format of "sft".
	ChatFormat string
	// SFT configures "sft".
	SFT SFTOptions
	// Request configures "openai-batch" and "anthropic-batch".
	Request RequestOptions
}

// OutputNames are the outputs NewOutput knows besides the chat formats.
var OutputNames = []string{"openai", "openai-batch", "anthropic-batch", "sft"}

// NewOutput returns the output named name: "openai" (OpenAI), "openai-batch"
// (OpenAIBatch), "anthropic-batch" (AnthropicBatch), "sft" (SFTOutput in
// the chat format o.ChatFormat), or the name of a chat format (Prompt). The
// front matter's tools go to the chat formats and the requests.
func NewOutput(name string, fm *engine.FrontMatter, o OutputOptions) (Append, error) {
	var tools []chat.Tool
	if fm != nil {
		tools = fm.Tools
	}
	if name != "sft" && (o.ChatFormat != "" || o.SFT != (SFTOptions{})) {
		return nil, errors.New("a chat format and SFT options go with the sft output only")
	}
	switch name {
	case "openai":
		return OpenAI(), nil
	case "openai-batch":
		return OpenAIBatch(fm, o.Request)
	case "anthropic-batch":
		return AnthropicBatch(fm, o.Request)
	case "sft":
		if o.ChatFormat == "" {
			return nil, errors.New("the sft output needs a chat format")
		}
		f, ok := format.Lookup(o.ChatFormat)
		if !ok {
			return nil, fmt.Errorf("unknown chat format %q; known: %s", o.ChatFormat, strings.Join(format.Names(), ", "))
		}
		return SFTOutput(f, tools, o.SFT), nil
	}
	f, ok := format.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown output %q; known: %s, %s", name, strings.Join(OutputNames, ", "), strings.Join(format.Names(), ", "))
	}
	return Prompt(f, tools), nil
}
