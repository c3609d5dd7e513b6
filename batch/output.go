package batch

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/batch/batchapi"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/engine"
)

// The outputs below are Appends that write one JSON line (ending in "\n")
// per row, for RenderAppend and RenderOne. Their JSON keeps <, > and & as
// they are. Each is made by a function named for the output, taking what
// the output needs as arguments and the rest as OutputOptions; Output
// makes one by its name, as the command line names it.

// OutputOption is an optional setting of an output (OpenAI, OpenAIBatch,
// AnthropicBatch, Prompt, SFT, TemplateSFT, Output) or of Spans. Each says
// which outputs take it; an output given one it does not take returns an
// error rather than ignore it.
type OutputOption func(*outputSettings)

type outputSettings struct {
	given          uint // the options given: a bit per option (optTools …)
	tools          []chat.Tool
	parallel       *bool
	model, idKey   string
	rewriteIDs     bool
	chatFormat     string
	lastOnly, ends bool
	allowSpecial   bool
	vars           map[string]any
}

// formatOptions are the chat format options the settings give a rendering,
// with the generation prompt when gen.
func (s *outputSettings) formatOptions(gen bool) []format.Option {
	opts := []format.Option{format.Tools(s.tools...)}
	if s.allowSpecial {
		opts = append(opts, format.AllowSpecialTokens())
	}
	if gen {
		opts = append(opts, format.GenerationPrompt())
	}
	return opts
}

// The options, as bits of outputSettings.given; optionNames names them.
const (
	optTools = 1 << iota
	optParallel
	optModel
	optIDKey
	optRewriteIDs
	optChatFormat
	optLastOnly
	optTurnEnds
	optAllowSpecial
	optVars

	// What each kind of output takes.
	optsSpans    = optTools | optLastOnly | optTurnEnds | optAllowSpecial
	optsRequests = optModel | optIDKey | optRewriteIDs
)

func optionName(bit uint) string {
	return [...]string{"Tools", "ParallelToolCalls", "Model", "IDKey", "RewriteIDs", "ChatFormat", "LastOnly",
		"TurnEnds", "AllowSpecialTokens", "Vars"}[bits.TrailingZeros(bit)]
}

// Tools are the tool definitions for OpenAI's lines (its fine-tuning format
// for tool use puts them on every line), and for the chat formats of Prompt,
// SFT, TemplateSFT and Spans. The batch requests take theirs from the
// front matter; Output gives the front matter's to the others unless this
// option is given.
func Tools(tools []chat.Tool) OutputOption {
	return func(s *outputSettings) { s.tools, s.given = tools, s.given|optTools }
}

// ParallelToolCalls writes "parallel_tool_calls" on OpenAI's lines. Output
// takes it from the front matter's config unless this option is given.
func ParallelToolCalls(on bool) OutputOption {
	return func(s *outputSettings) { s.parallel, s.given = &on, s.given|optParallel }
}

// Model overrides the front matter's model in OpenAIBatch's and
// AnthropicBatch's requests.
func Model(name string) OutputOption {
	return func(s *outputSettings) { s.model, s.given = name, s.given|optModel }
}

// IDKey names the row variable whose value becomes the custom_id of
// OpenAIBatch's and AnthropicBatch's requests; a row without it fails, as
// does one whose id the API refuses (batchapi.API.CheckID). Without it, the
// custom_id is "row-N", N the row's number from 1.
func IDKey(name string) OutputOption {
	return func(s *outputSettings) { s.idKey, s.given = name, s.given|optIDKey }
}

// RewriteIDs writes a custom_id the API refuses as batchapi.API.RewriteID makes it,
// rather than failing the row (OpenAIBatch, AnthropicBatch).
func RewriteIDs() OutputOption {
	return func(s *outputSettings) { s.rewriteIDs, s.given = true, s.given|optRewriteIDs }
}

// ChatFormat names the chat format of Output's "sft" output (format.Names).
func ChatFormat(name string) OutputOption {
	return func(s *outputSettings) { s.chatFormat, s.given = name, s.given|optChatFormat }
}

// LastOnly gives the span of the last assistant message only (SFT,
// TemplateSFT, Spans).
func LastOnly() OutputOption {
	return func(s *outputSettings) { s.lastOnly, s.given = true, s.given|optLastOnly }
}

// TurnEnds extends each span over the end of the assistant's turn as the
// format declares it (the assistant turn's End without trailing white
// space: "<|im_end|>" in chatml, "<|eot_id|>" in llama3, " </s>" in
// llama2; what a chat template writes after an assistant's text), so that
// a model learns to stop (SFT, TemplateSFT, Spans).
func TurnEnds() OutputOption {
	return func(s *outputSettings) { s.ends, s.given = true, s.given|optTurnEnds }
}

// AllowSpecialTokens lets message content hold the model's special tokens
// (format.AllowSpecialTokens), for data a team trusts (Prompt, SFT,
// TemplateSFT, Spans).
func AllowSpecialTokens() OutputOption {
	return func(s *outputSettings) { s.allowSpecial, s.given = true, s.given|optAllowSpecial }
}

// Vars are the variables of a model's chat template (TemplateSFT and
// TemplateSpans; format.Vars).
func Vars(vars map[string]any) OutputOption {
	return func(s *outputSettings) { s.vars, s.given = vars, s.given|optVars }
}

// outputOptions applies opts, and returns an error naming the first that
// output, which takes those in takes, does not take.
func outputOptions(output string, takes uint, opts []OutputOption) (outputSettings, error) {
	var s outputSettings
	for _, o := range opts {
		o(&s)
	}
	if extra := s.given &^ takes; extra != 0 {
		return s, fmt.Errorf("%s: the %s option does not apply to it", output, optionName(extra&-extra))
	}
	return s, nil
}

// OpenAI writes {"messages": […]} per row: the OpenAI chat-completions
// messages, which is also the line OpenAI's chat fine-tuning takes. With
// Tools, it writes the line of that format with tool use, {"messages":
// […], "tools": […]}, the tools in OpenAI's function form on every line,
// and with ParallelToolCalls "parallel_tool_calls". A row whose assistant
// calls a tool that the tools do not define fails: the fine-tuning job
// would refuse the file.
func OpenAI(opts ...OutputOption) (Append, error) {
	s, err := outputOptions("openai", optTools|optParallel, opts)
	if err != nil {
		return nil, err
	}
	return openAI(s)
}

func openAI(s outputSettings) (Append, error) {
	tools := s.tools
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
				return nil, fmt.Errorf("openai: tool %q: %w", t.Name, err)
			}
			suffix = append(suffix, j...)
			names[t.Name] = true
		}
		suffix = append(suffix, ']')
	}
	if s.parallel != nil {
		suffix = strconv.AppendBool(append(suffix, `,"parallel_tool_calls":`...), *s.parallel)
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
	}, nil
}

// OpenAIBatch writes per row the request line OpenAI's Batch API (and the
// compatible ones) takes: {"custom_id", "method": "POST", "url":
// "/v1/chat/completions", "body"}, the body being chat.OpenAIBody of the
// messages and the front matter's settings (model, config, tools, tool
// choice, output). It takes Model, IDKey and RewriteIDs. It fails when
// there is no model, or when the model is one the API does not serve
// (batchapi.API.CheckModel). A batchapi.File checks what a file of the
// lines must hold.
func OpenAIBatch(fm *engine.FrontMatter, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("openai-batch", optsRequests, opts)
	if err != nil {
		return nil, err
	}
	return openAIBatch(fm, s)
}

func openAIBatch(fm *engine.FrontMatter, o outputSettings) (Append, error) {
	a, _, err := requestLine("openai-batch", fm, o, `,"method":"POST","url":"/v1/chat/completions","body":`, chat.AppendOpenAIBody)
	return a, err
}

// AnthropicBatch writes per row one item of the requests array of
// Anthropic's Message Batches API: {"custom_id", "params"}, the params being
// chat.AnthropicBody of the messages and the front matter's settings. It
// takes Model, IDKey and RewriteIDs. It fails when there is no model, when
// the model is not Claude's (batchapi.API.CheckModel), or when there is no
// max_tokens in the config. A row whose custom_id Anthropic refuses fails,
// unless RewriteIDs; a batchapi.File checks what a batch of the lines must
// hold.
func AnthropicBatch(fm *engine.FrontMatter, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("anthropic-batch", optsRequests, opts)
	if err != nil {
		return nil, err
	}
	return anthropicBatch(fm, s)
}

func anthropicBatch(fm *engine.FrontMatter, o outputSettings) (Append, error) {
	a, s, err := requestLine("anthropic-batch", fm, o, `,"params":`, chat.AppendAnthropicBody)
	if err != nil {
		return nil, err
	}
	if _, err := chat.AnthropicBody(nil, s); err != nil {
		var re *chat.RequestError
		if errors.As(err, &re) && re.Field != "messages" {
			return nil, fmt.Errorf("anthropic-batch: %w", err)
		}
	}
	return a, nil
}

// requestLine returns the output of the batch API named name (see
// batchapi.ByName), whose line is {"custom_id": …, then key, the body that
// appendBody writes of the row's messages and the request's settings, and
// "}\n"; and those settings (requestSettings).
func requestLine(name string, fm *engine.FrontMatter, o outputSettings, key string,
	appendBody func([]byte, []chat.Message, chat.Settings) ([]byte, error)) (Append, chat.Settings, error) {
	api, _ := batchapi.ByName(name)
	s, err := requestSettings(fm, o, api)
	if err != nil {
		return nil, s, err
	}
	return func(_ context.Context, b []byte, index int, row Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"custom_id":`...)
		b, err := appendCustomID(b, &api, &o, index, row)
		if err != nil {
			return nil, err
		}
		b = append(b, key...)
		b, err = appendBody(b, msgs, s)
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}, s, nil
}

// requestSettings are the front matter's request settings, with the model
// overridden by o; it fails when there is no model or api does not serve
// it.
func requestSettings(fm *engine.FrontMatter, o outputSettings, api batchapi.API) (chat.Settings, error) {
	s := fm.Settings()
	if o.model != "" {
		s.Model = o.model
	}
	if s.Model == "" {
		return s, fmt.Errorf("%s needs a model: write model: in the template's front matter or pass one", api.Name)
	}
	return s, api.CheckModel(s.Model)
}

// Prompt writes {"prompt": …} per row: the conversation in the chat format
// f, ending with the generation prompt, as a local model reads it. It takes
// Tools and AllowSpecialTokens, and fails for a format that does not
// validate (format.Format.Validate).
func Prompt(f *format.Format, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("prompt", optTools|optAllowSpecial, opts)
	if err != nil {
		return nil, err
	}
	return prompt(f, s)
}

func prompt(f *format.Format, s outputSettings) (Append, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	opts := s.formatOptions(true)
	return func(_ context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		b = append(b, `{"prompt":`...)
		b, err := appendStringOf(b, func(b []byte) ([]byte, error) { return f.AppendRender(b, msgs, opts...) })
		if err != nil {
			return nil, err
		}
		return append(b, "}\n"...), nil
	}, nil
}

// SFT writes {"text": …, "assistant_spans": [[start, end], …]} per row: the
// conversation in the chat format f without a generation prompt, and the
// spans Spans finds. It takes Spans' options (Tools, LastOnly, TurnEnds,
// AllowSpecialTokens), and fails for a format that does not validate.
func SFT(f *format.Format, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("sft", optsSpans, opts)
	if err != nil {
		return nil, err
	}
	return sft(f, s)
}

func sft(f *format.Format, s outputSettings) (Append, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return sftLine(func(_ context.Context, msgs []chat.Message) (string, [][2]int, error) {
		return formatSpans(f, msgs, &s)
	}), nil
}

// TemplateSFT is SFT for a model's own chat template t, with the spans
// TemplateSpans finds; it also takes Vars, the template's variables.
func TemplateSFT(t *chattemplate.Template, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("sft", optsSpans|optVars, opts)
	if err != nil {
		return nil, err
	}
	return sftLine(func(ctx context.Context, msgs []chat.Message) (string, [][2]int, error) {
		return templateSpans(ctx, t, msgs, &s)
	}), nil
}

// sftLine returns the output that writes per row the text and the spans
// that spans finds in the row's messages.
func sftLine(spans func(context.Context, []chat.Message) (string, [][2]int, error)) Append {
	return func(ctx context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		text, sp, err := spans(ctx, msgs)
		if err != nil {
			return nil, err
		}
		return appendSFT(b, text, sp), nil
	}
}

// OutputNames returns the names of the outputs Output knows besides the
// chat formats (format.Names).
func OutputNames() []string {
	return []string{"openai", "openai-batch", "anthropic-batch", "sft"}
}

// Output returns the output named name, as the command line names it:
// "openai" (OpenAI), "openai-batch" (OpenAIBatch), "anthropic-batch"
// (AnthropicBatch), "sft" (SFT in the chat format of the ChatFormat
// option), or the name of a chat format (Prompt). It takes the options of
// the output it makes, and gives it the front matter's tools (and, for
// "openai", its config's parallel_tool_calls) unless Tools (or
// ParallelToolCalls) is given.
func Output(name string, fm *engine.FrontMatter, opts ...OutputOption) (Append, error) {
	takes := uint(optTools | optAllowSpecial) // a chat format's prompt
	switch name {
	case "openai":
		takes = optTools | optParallel
	case "openai-batch", "anthropic-batch":
		takes = optsRequests
	case "sft":
		takes = optsSpans | optChatFormat
	}
	s, err := outputOptions(name, takes, opts)
	if err != nil {
		return nil, err
	}
	if fm == nil {
		fm = &engine.FrontMatter{}
	}
	if s.given&optTools == 0 {
		s.tools = fm.Tools
	}
	switch name {
	case "openai":
		if p, ok := fm.Config["parallel_tool_calls"].(bool); ok && s.given&optParallel == 0 {
			s.parallel = &p
		}
		return openAI(s)
	case "openai-batch":
		return openAIBatch(fm, s)
	case "anthropic-batch":
		return anthropicBatch(fm, s)
	case "sft":
		if s.chatFormat == "" {
			return nil, errors.New("the sft output needs a chat format")
		}
		f, ok := format.Lookup(s.chatFormat)
		if !ok {
			return nil, fmt.Errorf("unknown chat format %q; known: %s", s.chatFormat, strings.Join(format.Names(), ", "))
		}
		return sft(f, s)
	}
	f, ok := format.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown output %q; known: %s, %s", name, strings.Join(OutputNames(), ", "), strings.Join(format.Names(), ", "))
	}
	return prompt(f, s)
}

// appendCustomID appends the custom_id of a row as a JSON string: "row-N"
// without IDKey, else the row's variable o.idKey, checked by api (or
// rewritten, under RewriteIDs). A row without the variable, or whose
// value is null, an object or a list, is an error: a custom_id made up for
// it would not match the row's own id.
func appendCustomID(b []byte, api *batchapi.API, o *outputSettings, index int, row Row) ([]byte, error) {
	if o.idKey == "" {
		b = append(b, `"row-`...)
		b = strconv.AppendInt(b, int64(index)+1, 10)
		return append(b, '"'), nil
	}
	var id string
	switch v := row.Vars[o.idKey].(type) {
	case string:
		id = v
	case float64:
		id = strconv.FormatFloat(v, 'f', -1, 64)
	case bool, int, int64, int32, uint, uint64, uint32:
		id = fmt.Sprint(v)
	case nil:
		if _, ok := row.Vars[o.idKey]; ok {
			return nil, fmt.Errorf("the id field %q is null", o.idKey)
		}
		return nil, fmt.Errorf("no id field %q in the row", o.idKey)
	default:
		return nil, fmt.Errorf("the id field %q holds a %T, not a string or a number", o.idKey, v)
	}
	if o.rewriteIDs {
		id = api.RewriteID(id)
	} else if err := api.CheckID(id); err != nil {
		return nil, err
	}
	return appendString(b, id), nil
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

// appendSFT appends the line of SFT.
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
