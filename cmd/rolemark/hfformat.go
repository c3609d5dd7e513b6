package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/internal/jsonw"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// hfPrefix starts a --format that names a model's own chat template file.
const hfPrefix = "hf:"

// hfUsage is what rolemark formats says about hf:FILE.
const hfUsage = "a model's own chat template: FILE is its tokenizer_config.json, chat_template.jinja or chat_template.json " +
	"(special tokens from a tokenizer_config.json beside it, else the tokens its own text writes); --tools FILE and --template-var k=v give the tools and " +
	"variables the template reads"

// promptFormat is a chat format --format names: a preset, or hf:FILE.
type promptFormat struct {
	preset *chatformat.Format
	tpl    *chattemplate.Template
}

// loadPromptFormat returns the chat format called name, and false when
// name is neither a preset nor hf:FILE.
func loadPromptFormat(name string, opts ...chattemplate.Option) (*promptFormat, bool, error) {
	if file, ok := strings.CutPrefix(name, hfPrefix); ok {
		if file == "" {
			return nil, true, usageErr("--format hf:FILE needs a file: a model's tokenizer_config.json or chat_template.jinja")
		}
		tpl, err := chattemplate.Load(os.DirFS(filepath.Dir(file)), filepath.Base(file), append([]chattemplate.Option{chattemplate.Name(file)}, opts...)...)
		if err != nil {
			return nil, true, err
		}
		return &promptFormat{tpl: tpl}, true, nil
	}
	f, ok := chatformat.Lookup(name)
	if !ok {
		return nil, false, nil
	}
	return &promptFormat{preset: f}, true, nil
}

// render writes msgs as the prompt string a local model reads: with the
// generation prompt, unless o says --no-generation-prompt or
// --continue-final.
func (p *promptFormat) render(ctx context.Context, msgs []chat.Message, tools []chat.Tool, o *promptOptions) (string, error) {
	var vars map[string]any
	if o != nil {
		vars = o.vars
	}
	return p.renderWith(ctx, msgs, vars, append(o.ending(), chatformat.Tools(tools...))...)
}

// renderWith renders msgs with opts, and with vars where the format is a
// chat template (a preset has no variables).
func (p *promptFormat) renderWith(ctx context.Context, msgs []chat.Message, vars map[string]any, opts ...chatformat.Option) (string, error) {
	if p.tpl == nil && len(vars) > 0 {
		return "", errPresetVars()
	}
	if p.tpl != nil {
		return p.tpl.Render(ctx, msgs, append(opts[:len(opts):len(opts)], chatformat.Vars(vars))...)
	}
	return p.preset.Render(msgs, opts...)
}

// errPresetVars refuses --template-var with a preset, which has no
// variables: they would be dropped.
func errPresetVars() error {
	return usageErr("--template-var is for a chat template (--format hf:FILE); a preset reads no variables")
}

// promptOptions are what --tools, --template-var, --no-generation-prompt,
// --continue-final, --now and --content-parts add to a chat format's
// rendering.
type promptOptions struct {
	toolsFile string
	vars      templateVarsFlag
	noGen     bool
	cont      bool
	now       nowFlag
	parts     bool
}

// ending returns how the prompt ends: the generation prompt (the default),
// nothing after the final message, or the final message continued.
func (o *promptOptions) ending() []chatformat.Option {
	switch {
	case o == nil:
		return []chatformat.Option{chatformat.GenerationPrompt()}
	case o.cont:
		return []chatformat.Option{chatformat.ContinueFinal()}
	case o.noGen:
		return nil
	}
	return []chatformat.Option{chatformat.GenerationPrompt()}
}

// check refuses the flags of a chat format's prompt string with a format
// that writes none (openai, anthropic, markup, the request and batch
// formats), and those only a chat template reads with a preset, rather
// than let them do nothing (format is --format, or sft's --chat-format).
func (o *promptOptions) check(format string) error {
	var set []string
	for _, f := range []struct {
		name string
		on   bool
	}{{"template-var", len(o.vars) > 0}, {"no-generation-prompt", o.noGen}, {"continue-final", o.cont}, {"now", !o.now.t.IsZero()}, {"content-parts", o.parts}} {
		if f.on {
			set = append(set, f.name)
		}
	}
	if len(set) == 0 {
		return nil
	}
	switch format {
	case "openai", "anthropic", "markup", "openai-request", "anthropic-request", "openai-batch", "anthropic-batch":
		return usageErr("--%s is for a chat --format (a preset or hf:FILE); --format %s writes no prompt string", set[0], format)
	}
	if strings.HasPrefix(format, "hf:") {
		return nil
	}
	switch {
	case !o.now.t.IsZero():
		return usageErr("--now is for a chat template (--format hf:FILE); a preset reads no clock")
	case o.parts:
		return usageErr("--content-parts is for a chat template (--format hf:FILE); a preset writes content as it is")
	}
	return nil
}

// templateOptions returns what --now and --content-parts set of a chat
// template: the clock strftime_now reads, and content as a list of parts.
func (o *promptOptions) templateOptions() []chattemplate.Option {
	if o == nil {
		return nil
	}
	var opts []chattemplate.Option
	if !o.now.t.IsZero() {
		t := o.now.t
		opts = append(opts, chattemplate.Clock(func() time.Time { return t }))
	}
	if o.parts {
		opts = append(opts, chattemplate.ContentParts())
	}
	return opts
}

// nowFlag is --now: a time in RFC 3339.
type nowFlag struct{ t time.Time }

func (n *nowFlag) String() string {
	if n.t.IsZero() {
		return ""
	}
	return n.t.Format(time.RFC3339)
}

func (n *nowFlag) Set(s string) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("--now takes a time in RFC 3339, such as 2026-07-26T09:30:00Z, not %q", s)
	}
	n.t = t
	return nil
}

// addPromptFlags declares --tools, --template-var, --no-generation-prompt,
// --continue-final, --now and --content-parts.
func addPromptFlags(fl *flag.FlagSet, o *promptOptions) {
	fl.BoolVar(&o.noGen, "no-generation-prompt", false, "end a chat format's prompt after the final message, without the assistant's turn opening (add_generation_prompt=False)")
	fl.BoolVar(&o.cont, "continue-final", false, "end a chat format's prompt inside the final message, for the model to continue it (continue_final_message=True)")
	fl.BoolVar(&o.parts, "content-parts", false, "give a chat template every message's content as a list of parts, a text-only one's as [{\"type\": \"text\", ...}], for templates that only loop over parts (vision models')")
	fl.Var(&o.now, "now", "the `TIME` (RFC 3339) a chat template's strftime_now reads, for a prompt that does not change with the day (default: the clock)")
	o.vars = templateVarsFlag{}
	fl.StringVar(&o.toolsFile, "tools", "", "tool definitions, a JSON array of OpenAI function tools in `FILE`: those a chat format shows, and in render those front matter may name (tools: [get_weather])")
	fl.Var(o.vars, "template-var", "variable `k=v` of a chat template (v is read as JSON when it is JSON, else as text; repeatable)")
}

// tools returns the tools of --tools, or fallback when it is not given.
func (o *promptOptions) tools(fallback []chat.Tool) ([]chat.Tool, error) {
	if o.toolsFile == "" {
		return fallback, nil
	}
	var tools []chat.Tool
	if err := readJSONFile(o.toolsFile, &tools); err != nil {
		return nil, err
	}
	return tools, nil
}

// templateVarsFlag collects --template-var k=v.
type templateVarsFlag map[string]any

func (v templateVarsFlag) String() string { return "" }

func (v templateVarsFlag) Set(s string) error {
	return setVar(v, "--template-var", s, func(k, val string) (any, error) {
		if k == "tools" {
			return nil, fmt.Errorf("--template-var tools=… clashes with --tools: give the tools with --tools FILE")
		}
		// JSON as written: a pyjson.Value keeps an object's key order and
		// tells 2.0 from 2, as Python's json.loads does.
		if x, err := pyjson.Parse([]byte(val)); err == nil {
			return x, nil
		}
		return val, nil
	})
}

// appendWith appends to b the prompt renderWith returns, rendered into
// b (chattemplate.Template.AppendRender, chat/format.Format.AppendRender).
func (p *promptFormat) appendWith(ctx context.Context, b []byte, msgs []chat.Message, vars map[string]any, opts ...chatformat.Option) ([]byte, error) {
	if p.tpl == nil && len(vars) > 0 {
		return b, errPresetVars()
	}
	if p.tpl != nil {
		return p.tpl.AppendRender(ctx, b, msgs, append(opts[:len(opts):len(opts)], chatformat.Vars(vars))...)
	}
	return p.preset.AppendRender(b, msgs, opts...)
}

// hfPrompt is batch's prompt output for hf:FILE: {"prompt": …} per row;
// allowSpecial lets the rows' content hold the template's special tokens.
// The prompt is rendered into the row's line and escaped from a copy, as
// encoding/json writes a string with HTML escaping off.
func hfPrompt(p *promptFormat, tools []chat.Tool, po *promptOptions, allowSpecial bool) batch.Append {
	return func(ctx context.Context, b []byte, _ int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
		opts := append(po.ending(), chatformat.Tools(tools...))
		if allowSpecial {
			opts = append(opts, chatformat.AllowSpecialTokens())
		}
		b = append(b, `{"prompt":`...)
		start := len(b)
		b, err := p.appendWith(ctx, b, msgs, po.vars, opts...)
		if err != nil {
			return nil, err
		}
		text := string(b[start:])
		b = jsonw.String(b[:start], text)
		return append(b, "}\n"...), nil
	}
}
