package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/rolemark/rolemark/internal/pyjson"
	"os"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
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
func loadPromptFormat(name string) (*promptFormat, bool, error) {
	if file, ok := strings.CutPrefix(name, hfPrefix); ok {
		if file == "" {
			return nil, true, usageErr("--format hf:FILE needs a file: a model's tokenizer_config.json or chat_template.jinja")
		}
		tpl, err := chattemplate.LoadTemplate(os.DirFS(filepath.Dir(file)), filepath.Base(file), chattemplate.Name(file))
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

// render writes msgs as the prompt string a local model reads, with the
// generation prompt.
func (p *promptFormat) render(ctx context.Context, msgs []chat.Message, tools []chat.Tool, vars map[string]any) (string, error) {
	return p.renderWith(ctx, msgs, vars, chatformat.GenerationPrompt(), chatformat.Tools(tools...))
}

// renderWith renders msgs with opts, and with vars where the format is a
// chat template (a preset has no variables).
func (p *promptFormat) renderWith(ctx context.Context, msgs []chat.Message, vars map[string]any, opts ...chatformat.Option) (string, error) {
	if p.tpl != nil {
		return p.tpl.Render(ctx, msgs, append(opts[:len(opts):len(opts)], chatformat.Vars(vars))...)
	}
	return p.preset.Render(msgs, opts...)
}

// promptOptions are what --tools and --template-var add to a chat format's
// rendering.
type promptOptions struct {
	toolsFile string
	vars      templateVarsFlag
}

// addPromptFlags declares --tools and --template-var.
func addPromptFlags(fl *flag.FlagSet, o *promptOptions) {
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
	k, val, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("--template-var takes key=value, not %q", s)
	}
	if k == "tools" {
		return fmt.Errorf("--template-var tools=… clashes with --tools: give the tools with --tools FILE")
	}
	// JSON as written: a pyjson.Value keeps an object's key order and
	// tells 2.0 from 2, as Python's json.loads does.
	if x, err := pyjson.Parse([]byte(val)); err == nil {
		v[k] = x
	} else {
		v[k] = val
	}
	return nil
}

// hfPrompt is batch's prompt output for hf:FILE: {"prompt": …} per row;
// allowSpecial lets the rows' content hold the template's special tokens.
func hfPrompt(p *promptFormat, tools []chat.Tool, vars map[string]any, allowSpecial bool) batch.Append {
	return func(ctx context.Context, b []byte, _ int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
		opts := []chatformat.Option{chatformat.GenerationPrompt(), chatformat.Tools(tools...)}
		if allowSpecial {
			opts = append(opts, chatformat.AllowSpecialTokens())
		}
		s, err := p.renderWith(ctx, msgs, vars, opts...)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Prompt string `json:"prompt"`
		}{s}); err != nil {
			return nil, err
		}
		return append(b, buf.Bytes()...), nil
	}
}
