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
// messages, which is also the line OpenAI's chat fine-tuning takes. See
// OpenAIWithTools for conversations that call tools.
func OpenAI() Append { return OpenAIWithTools(nil, nil) }

// OpenAIWithTools writes the line of OpenAI's chat fine-tuning format with
// tool use: {"messages": […], "tools": […], "parallel_tool_calls": …}, the
// tools in OpenAI's function form on every line, and parallel_tool_calls
// when parallel is not nil. A row whose assistant calls a tool that tools
// does not define fails: the fine-tuning job would refuse the file.
func OpenAIWithTools(tools []chat.Tool, parallel *bool) Append {
	var suffix []byte
	names := map[string]bool{}
	if len(tools) > 0 {
		suffix = append(suffix, `,"tools":[`...)
		for i, t := range tools {
			if i > 0 {
				suffix = append(suffix, ',')
			}
			j, err := t.MarshalJSON()
			if err != nil {
				return func(context.Context, []byte, int, Row, []chat.Message) ([]byte, error) {
					return nil, fmt.Errorf("tool %q: %w", t.Name, err)
				}
			}
			suffix = append(suffix, j...)
			names[t.Name] = true
		}
		suffix = append(suffix, ']')
	}
	if parallel != nil {
		suffix = strconv.AppendBool(append(suffix, `,"parallel_tool_calls":`...), *parallel)
	}
	suffix = append(suffix, "}\n"...)
	return func(_ context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		for i := range msgs {
			for _, c := range msgs[i].ToolCalls {
				if !names[c.Name] {
					if len(tools) == 0 {
						return nil, fmt.Errorf("message %d calls %s: OpenAI's fine-tuning format needs the tools on the line; write tools: in the front matter or pass --tools", i+1, c.Name)
					}
					return nil, fmt.Errorf("message %d calls %s, which the tools do not define", i+1, c.Name)
				}
			}
		}
		b, err := appendMessages(append(b, `{"messages":`...), msgs)
		if err != nil {
			return nil, err
		}
		return append(b, suffix...), nil
	}
}

// RequestOptions configure the batch request outputs.
type RequestOptions struct {
	// Model overrides the front matter's model.
	Model string
	// IDKey names the row variable whose value becomes the custom_id; a row
	// without it fails, as does one whose id the API refuses (API.CheckID).
	// When empty, the custom_id is "row-N" with N the row's number from 1.
	IDKey string
	// RewriteIDs writes an id the API refuses as API.RewriteID makes it,
	// rather than failing the row.
	RewriteIDs bool
}

// OpenAIBatch writes per row the request line OpenAI's Batch API (and the
// compatible ones) takes: {"custom_id", "method": "POST", "url":
// "/v1/chat/completions", "body"}, the body being chat.OpenAIBody of the
// messages and the front matter's settings (model, config, tools, tool
// choice, output). It fails when there is no model, or when the model is
// one the API does not serve (OpenAIBatchAPI.CheckModel). RequestFile
// checks what a file of the lines must hold.
func OpenAIBatch(fm *engine.FrontMatter, o RequestOptions) (Append, error) {
	s, err := requestSettings(fm, o, OpenAIBatchAPI)
	if err != nil {
		return nil, err
	}
	return func(_ context.Context, b []byte, index int, row Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"custom_id":`...)
		b, err := appendCustomID(b, OpenAIBatchAPI, o, index, row)
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
// fails when there is no model, when the model is not Claude's
// (AnthropicBatchAPI.CheckModel), or when there is no max_tokens in the
// config. A row whose custom_id Anthropic refuses fails, unless
// o.RewriteIDs; RequestFile checks what a batch of the lines must hold.
func AnthropicBatch(fm *engine.FrontMatter, o RequestOptions) (Append, error) {
	s, err := requestSettings(fm, o, AnthropicBatchAPI)
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
		b, err := appendCustomID(b, AnthropicBatchAPI, o, index, row)
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
// overridden by o; it fails when there is no model or api does not serve
// it.
func requestSettings(fm *engine.FrontMatter, o RequestOptions, api API) (chat.Settings, error) {
	s := fm.Settings()
	if o.Model != "" {
		s.Model = o.Model
	}
	if s.Model == "" {
		return s, fmt.Errorf("%s needs a model: write model: in the template's front matter or pass one", api.Name)
	}
	return s, api.CheckModel(s.Model)
}

// lineSize guesses the size of a line holding msgs.
func lineSize(msgs []chat.Message) int {
	n := 192
	for i := range msgs {
		n += 48 + len(msgs[i].Text()) + len(msgs[i].Text())/16
	}
	return n
}

// appendCustomID appends the custom_id of a row as a JSON string: "row-N"
// when o.IDKey is empty, else the row's variable o.IDKey, checked by api
// (or rewritten, under o.RewriteIDs). A row without the variable, or whose
// value is null, an object or a list, is an error: a custom_id made up for
// it would not match the row's own id.
func appendCustomID(b []byte, api API, o RequestOptions, index int, row Row) ([]byte, error) {
	if o.IDKey == "" {
		b = append(b, `"row-`...)
		b = strconv.AppendInt(b, int64(index)+1, 10)
		return append(b, '"'), nil
	}
	var id string
	switch v := row.Vars[o.IDKey].(type) {
	case string:
		id = v
	case float64:
		id = strconv.FormatFloat(v, 'f', -1, 64)
	case bool, int, int64, int32, uint, uint64, uint32:
		id = fmt.Sprint(v)
	case nil:
		if _, ok := row.Vars[o.IDKey]; ok {
			return nil, fmt.Errorf("the id field %q is null", o.IDKey)
		}
		return nil, fmt.Errorf("no id field %q in the row", o.IDKey)
	default:
		return nil, fmt.Errorf("the id field %q holds a %T, not a string or a number", o.IDKey, v)
	}
	if o.RewriteIDs {
		id = api.RewriteID(id)
	} else if err := api.CheckID(id); err != nil {
		return nil, err
	}
	return appendString(b, id), nil
}

// Prompt writes {"prompt": …} per row: the conversation in the chat format
// f, ending with the generation prompt, as a local model reads it.
func Prompt(f *format.Format, tools []chat.Tool) Append {
	return PromptWith(f, format.Options{Tools: tools})
}

// PromptWith is Prompt with the format's options (tools, special tokens
// allowed); the generation prompt is always added.
func PromptWith(f *format.Format, opts format.Options) Append {
	opts.AddGenerationPrompt = true
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
		return appendSFT(b, text, spans), nil
	}
}

// TemplateSFTOutput is SFTOutput for a model's own chat template, with the
// spans TemplateSpans finds; vars are the template's variables.
func TemplateSFTOutput(t *format.Template, tools []chat.Tool, vars map[string]any, o SFTOptions) Append {
	return func(ctx context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		text, spans, err := TemplateSpans(ctx, t, msgs, tools, vars, o)
		if err != nil {
			return nil, err
		}
		return appendSFT(b, text, spans), nil
	}
}

// appendSFT appends the line of SFTOutput.
func appendSFT(b []byte, text string, spans [][2]int) []byte {
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
	return append(b, "]}\n"...)
}

// OutputOptions configure NewOutput.
type OutputOptions struct {
	// ChatFormat names the chat format of "sft".
	ChatFormat string
	// SFT configures "sft".
	SFT SFTOptions
	// Request configures "openai-batch" and "anthropic-batch".
	Request RequestOptions
	// AllowSpecialTokens lets message content hold the model's special
	// tokens in "sft" and the chat formats (format.Options).
	AllowSpecialTokens bool
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
		var parallel *bool
		if fm != nil {
			if p, ok := fm.Config["parallel_tool_calls"].(bool); ok {
				parallel = &p
			}
		}
		return OpenAIWithTools(tools, parallel), nil
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
		sft := o.SFT
		sft.AllowSpecialTokens = sft.AllowSpecialTokens || o.AllowSpecialTokens
		return SFTOutput(f, tools, sft), nil
	}
	f, ok := format.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown output %q; known: %s, %s", name, strings.Join(OutputNames, ", "), strings.Join(format.Names(), ", "))
	}
	return PromptWith(f, format.Options{Tools: tools, AllowSpecialTokens: o.AllowSpecialTokens}), nil
}
