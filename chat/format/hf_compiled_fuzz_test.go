package format_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// FuzzCompiledVsEngine renders random conversations (roles in any order,
// contents with the templates' special tokens, content parts, tool calls
// and results, tools offered or not) with every corpus template the
// compiled path accepts, through the compiled path and through the engine
// alone. Where both render, the strings are identical; where the compiled
// path renders and the engine does not, the engine's error is one of its
// cautious refusals of content the template prints (see hfjinja.go), which
// Python renders.
func FuzzCompiledVsEngine(f *testing.F) {
	f.Add(uint8(93), []byte{1, 2, 4, 3, 3, 2, 1}, "Hello, how are you?", "<|im_end|>", true)
	f.Add(uint8(0), []byte{0, 1, 2, 1}, "You are helpful.", "Fine", false)
	f.Add(uint8(23), []byte{1, 2, 1, 2, 1}, "<|eot_id|>x", "  spaced\n\t", true)
	f.Add(uint8(110), []byte{9, 4, 3, 2}, "Weather?", "[INST] forged [/INST]", true)
	f.Add(uint8(58), []byte{0x19, 2, 0x21}, "Ünïcödé ✓ 中文 😀", "<start_of_turn>model", false)
	f.Add(uint8(46), []byte{0, 1, 4, 3, 2, 1}, "<｜end▁of▁sentence｜>", "think</think>answer", true)
	f.Add(uint8(36), []byte{0x80, 1, 0x40, 2}, "", "{{ not jinja }}", true)
	sources, convs, _ := readCorpus(f)
	tools := convs["tools-two-calls-answer"].tools()
	var templates []*format.Template
	var specials [][]string
	var compiledSources []corpusSource
	for _, s := range sources {
		tpl, err := s.compile()
		if err != nil || !format.Compiled(tpl) {
			continue
		}
		templates = append(templates, tpl)
		specials = append(specials, tpl.SpecialTokens())
		compiledSources = append(compiledSources, s)
	}
	sources = compiledSources
	arbiter := &jinja2Arbiter{}
	f.Cleanup(arbiter.close)
	f.Fuzz(func(t *testing.T, which uint8, shape []byte, text1, text2 string, agp bool) {
		if len(shape) > 24 || len(text1)+len(text2) > 4096 || !utf8.ValidString(text1) || !utf8.ValidString(text2) {
			return // Python's str holds no invalid UTF-8
		}
		i := int(which) % len(templates)
		tpl := templates[i]
		msgs, withTools := fuzzConversation(shape, text1, text2, specials[i])
		opts := format.Options{AddGenerationPrompt: agp, AllowSpecialTokens: true}
		if withTools {
			opts.Tools = tools
		}
		ctx := context.Background()
		t0 := time.Now()
		got, ok, raised := format.RenderCompiled(ctx, tpl, msgs, opts)
		t1 := time.Now()
		want, err := format.EngineOnly(tpl).Render(ctx, msgs, opts)
		if d := time.Since(t1); d > time.Second || t1.Sub(t0) > time.Second {
			t.Fatalf("SLOW template %s: compiled %v engine %v", tpl.Name(), t1.Sub(t0), d)
		}
		if ok && ((err != nil) != (raised != nil) || got != want) {
			// They disagree: Python's Jinja2 decides.
			py, pyErr := arbiter.render(t, sources[i], msgs, opts)
			switch {
			case raised != nil && pyErr == "":
				t.Fatalf("template %s: compiled raises %v, Jinja2 %q (engine: %q, %v)", tpl.Name(), raised, py, want, err)
			case raised != nil:
			case pyErr != "":
				t.Fatalf("template %s: compiled %q, but Jinja2 raises %s (engine: %q, %v)", tpl.Name(), got, pyErr, want, err)
			case py != got:
				t.Fatalf("template %s: compiled %q, Jinja2 %q (engine: %q, %v)", tpl.Name(), got, py, want, err)
			}
		}
		// Render itself gives the compiled path's string or error, or the
		// engine's result when the compiled path does not model the call.
		r, rerr := tpl.Render(ctx, msgs, opts)
		if ok && ((rerr != nil) != (raised != nil) || r != got) || !ok && (r != want || (rerr == nil) != (err == nil)) {
			t.Fatalf("template %s: Render gives %q (%v)", tpl.Name(), r, rerr)
		}
	})
}

// fuzzConversation builds a conversation from shape: one message per byte
// (the role, what it holds), texts drawn from text1 and text2 with one of
// the template's special tokens inserted where the byte says.
func fuzzConversation(shape []byte, text1, text2 string, special []string) ([]chat.Message, bool) {
	var msgs []chat.Message
	withTools := len(shape) > 0 && shape[0]&0x80 == 0
	for n, b := range shape {
		text := text1
		if b&0x08 != 0 {
			text = text2
		}
		if len(special) > 0 && b&0x10 != 0 {
			tok := special[int(b>>5)%len(special)]
			at := len(text) / 2
			for at > 0 && !utf8Start(text[at]) {
				at--
			}
			text = text[:at] + tok + text[at:]
		}
		switch b % 8 {
		case 0:
			msgs = append(msgs, chat.Text(chat.RoleSystem, text))
		case 1, 5:
			msgs = append(msgs, chat.Text(chat.RoleUser, text))
		case 2, 6:
			msgs = append(msgs, chat.Text(chat.RoleAssistant, text))
		case 3:
			msgs = append(msgs, chat.Message{Role: chat.RoleTool, Content: chat.Text(chat.RoleTool, text).Content,
				ToolCallID: "call0000" + string(rune('1'+n%9))})
		case 4:
			m := chat.Text(chat.RoleAssistant, text)
			m.ToolCalls = []chat.ToolCall{
				{ID: "call00001", Name: "get_weather", Arguments: []byte(`{"city": "Paris", "unit": "°C"}`)},
				{ID: "call00002", Name: "get_time", Arguments: []byte(`{"tz": "` + strings.ReplaceAll(text2, `"`, "") + `"}`)},
			}
			if b&0x40 != 0 {
				m.ToolCalls = m.ToolCalls[:1]
			}
			msgs = append(msgs, m)
		case 7:
			msgs = append(msgs, chat.Message{Role: chat.RoleUser, Content: []chat.Part{
				chat.TextPart(text), {Type: chat.PartImage, URL: "https://example.com/cat.png"}, chat.TextPart(text2)}})
		}
	}
	return msgs, withTools
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }

// jinja2Arbiter renders with Python's Jinja2 (testdata/hf/serve.py, one
// process for the whole fuzzing run).
type jinja2Arbiter struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.Writer
	out  *bufio.Scanner
	fail error
}

func (a *jinja2Arbiter) close() {
	if a.cmd != nil {
		_ = a.cmd.Process.Kill()
		_ = a.cmd.Wait()
	}
}

// render returns Jinja2's output, or the exception it raises.
func (a *jinja2Arbiter) render(t *testing.T, src corpusSource, msgs []chat.Message, opts format.Options) (string, string) {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cmd == nil && a.fail == nil {
		cmd := exec.Command("python3", filepath.Join("testdata", "hf", "serve.py"))
		stdin, err := cmd.StdinPipe()
		if err == nil {
			var stdout interface{ Read([]byte) (int, error) }
			stdout, err = cmd.StdoutPipe()
			if err == nil {
				err = cmd.Start()
				a.out = bufio.NewScanner(stdout)
				a.out.Buffer(nil, 1<<24)
			}
		}
		if err != nil {
			a.fail = err
		} else {
			a.cmd, a.in = cmd, stdin
		}
	}
	if a.fail != nil {
		t.Fatalf("the compiled path and the engine disagree, and Python's Jinja2 cannot decide: %v", a.fail)
	}
	str := func(s string) pyjson.Value { return pyjson.Value{Kind: pyjson.String, Str: s} }
	req := pyjson.Value{Kind: pyjson.Object}
	req.Set("template", str(src.File))
	req.Set("messages", pyMessages(msgs))
	req.Set("tools", pyjson.Value{Kind: pyjson.Null})
	if len(opts.Tools) > 0 {
		req.Set("tools", pyTools(opts.Tools))
	}
	req.Set("add_generation_prompt", pyjson.Value{Kind: pyjson.Bool, Bool: opts.AddGenerationPrompt})
	req.Set("bos_token", str(src.BOS))
	req.Set("eos_token", str(src.EOS))
	if _, err := io.WriteString(a.in, pyjson.Dumps(req)+"\n"); err != nil {
		t.Fatalf("python3 testdata/hf/serve.py: %v", err)
	}
	if !a.out.Scan() {
		t.Fatalf("python3 testdata/hf/serve.py: no answer (%v)", a.out.Err())
	}
	var ans struct {
		Output    *string `json:"output"`
		Error     string  `json:"error"`
		ErrorKind string  `json:"error_kind"`
	}
	if err := json.Unmarshal(a.out.Bytes(), &ans); err != nil {
		t.Fatal(err)
	}
	if ans.Output == nil {
		return "", ans.ErrorKind + ": " + ans.Error
	}
	return *ans.Output, ""
}

// pyMessages writes a conversation in transformers' shape, as Template
// passes it (see the package documentation), keys in order.
func pyMessages(msgs []chat.Message) pyjson.Value {
	str := func(s string) pyjson.Value { return pyjson.Value{Kind: pyjson.String, Str: s} }
	out := pyjson.Value{Kind: pyjson.Array}
	for _, m := range msgs {
		d := pyjson.Value{Kind: pyjson.Object}
		d.Set("role", str(string(m.Role)))
		if m.TextOnly() {
			d.Set("content", str(m.Text()))
		} else {
			parts := pyjson.Value{Kind: pyjson.Array}
			for _, p := range m.Content {
				pd := pyjson.Value{Kind: pyjson.Object}
				pd.Set("type", str(string(p.Type)))
				if p.Type == chat.PartText {
					pd.Set("text", str(p.Text))
				} else {
					pd.Set("url", str(p.URL))
				}
				parts.Items = append(parts.Items, pd)
			}
			d.Set("content", parts)
		}
		if len(m.ToolCalls) > 0 {
			calls := pyjson.Value{Kind: pyjson.Array}
			for _, c := range m.ToolCalls {
				args, err := pyjson.Parse(c.Arguments)
				if err != nil {
					args = str(string(c.Arguments))
				}
				fn := pyjson.Value{Kind: pyjson.Object}
				fn.Set("name", str(c.Name))
				fn.Set("arguments", args)
				call := pyjson.Value{Kind: pyjson.Object}
				call.Set("id", str(c.ID))
				call.Set("type", str("function"))
				call.Set("function", fn)
				calls.Items = append(calls.Items, call)
			}
			d.Set("tool_calls", calls)
		}
		if m.ToolCallID != "" {
			d.Set("tool_call_id", str(m.ToolCallID))
		}
		out.Items = append(out.Items, d)
	}
	return out
}

func pyTools(tools []chat.Tool) pyjson.Value {
	out := pyjson.Value{Kind: pyjson.Array}
	for _, t := range tools {
		fn := pyjson.Value{Kind: pyjson.Object}
		fn.Set("name", pyjson.Value{Kind: pyjson.String, Str: t.Name})
		if t.Description != "" {
			fn.Set("description", pyjson.Value{Kind: pyjson.String, Str: t.Description})
		}
		if params, err := pyjson.Parse(t.Parameters); err == nil && len(t.Parameters) > 0 {
			fn.Set("parameters", params)
		}
		d := pyjson.Value{Kind: pyjson.Object}
		d.Set("type", pyjson.Value{Kind: pyjson.String, Str: "function"})
		d.Set("function", fn)
		out.Items = append(out.Items, d)
	}
	return out
}
