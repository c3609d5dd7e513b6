package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"unsafe"

	"github.com/aymerick/raymond"
	"github.com/flosch/pongo2/v6"
	"github.com/google/dotprompt/go/dotprompt"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/prompts"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// dir holds the benchmark prompt in every engine and role style.
var dir = filepath.Join("..", "testdata", "bench")

func read(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return string(b)
}

func vars(t testing.TB) map[string]any {
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(read(t, "vars.json")), &v))
	return v
}

// text is a string type of its own: the engines print it as the string it
// holds, and rolemark's fast paths, which take plain strings only, leave it
// to the general path.
type text string

// typedVars returns v with every string value as a text.
func typedVars(v map[string]any) map[string]any {
	tv := make(map[string]any, len(v))
	for k, x := range v {
		if s, ok := x.(string); ok {
			tv[k] = text(s)
		} else {
			tv[k] = x
		}
	}
	return tv
}

// msg is a message reduced to what every variant can produce. norm applies
// the only normalisations the comparison needs:
//   - roles: Dotprompt names the assistant "model"; langchaingo's message
//     types are "ai" (assistant) and "human" (user); rolemark and the raw
//     engines (parsed by roleparse) already say "assistant" and "user".
//   - text: trimmed of ASCII whitespace at both ends. Dotprompt keeps the
//     newline that follows each {{role}} marker's message in its text part,
//     and langchaingo keeps whatever its message template has at the ends;
//     rolemark trims literal edge whitespace by design.
//   - content: Dotprompt's text parts of a message are concatenated (there
//     is one per message here); langchaingo's content is a plain string.
//
// No variant escapes differently in a way that survives: Dotprompt
// (NoEscape) and langchaingo (no sanitisation on chat templates) insert the
// values verbatim; rolemark and the raw engines escape them and roleparse
// decodes them back.
type msg struct{ Role, Text string }

func norm(role, text string) msg {
	switch role {
	case "model", "ai":
		role = "assistant"
	case "human":
		role = "user"
	}
	return msg{role, strings.Trim(text, " \t\r\n")}
}

// variant renders the prompt once and reports its messages, or, for a raw
// engine, the markup a splitter would still have to parse.
type variant struct {
	name   string
	render func() ([]msg, error) // nil for raw engines
	raw    func() (string, error)
	// timed is what BenchmarkRender times for a rolemark variant: the
	// render to messages alone, without render's reduction to msg.
	timed func() error
}

var (
	engines = []struct{ name, ext string }{{"gotmpl", ".tmpl"}, {"handlebars", ".hbs"}, {"jinja", ".j2"}}
	styles  = []string{"literal", "marker", "block"}
)

func rolemarkTemplate(t testing.TB, file string) *engine.Template {
	set := engine.NewSet(gotmpl.New(), handlebars.New(), jinja.New())
	tpl, err := set.ParseFS(os.DirFS(dir), file)
	require.NoError(t, err)
	return tpl
}

func variants(t testing.TB) []variant {
	v := vars(t)
	ctx := context.Background()
	var out []variant
	for _, e := range engines {
		for _, s := range styles {
			tpl := rolemarkTemplate(t, s+e.ext)
			out = append(out, variant{name: "rolemark/" + e.name + "/" + s, render: func() ([]msg, error) {
				msgs, err := tpl.Messages(ctx, v)
				var r []msg
				for _, m := range msgs {
					r = append(r, norm(string(m.Role), m.Text()))
				}
				return r, err
			}, timed: func() error {
				_, err := tpl.Messages(ctx, v)
				return err
			}})
		}
	}

	// The same literal-tag prompt with every value of a named string type
	// (typed): a value no engine's fast path takes, so that rolemark's
	// general path (the engine runs, values escaped, markup parsed) is timed
	// beside the raw engines rendering the same data.
	tv := typedVars(v)
	for _, e := range engines {
		tpl := rolemarkTemplate(t, "literal"+e.ext)
		out = append(out, variant{name: "rolemark/" + e.name + "/typed", render: func() ([]msg, error) {
			msgs, err := tpl.Messages(ctx, tv)
			var r []msg
			for _, m := range msgs {
				r = append(r, norm(string(m.Role), m.Text()))
			}
			return r, err
		}, timed: func() error {
			_, err := tpl.Messages(ctx, tv)
			return err
		}})
	}

	// The raw engines render the literal-tag text with their own escaping and
	// nothing else: what a caller without rolemark would do before splitting.
	tt := template.Must(template.New("p").Parse(read(t, "literal.tmpl")))
	ttVars := v
	out = append(out, variant{name: "raw/text-template", raw: func() (string, error) {
		var buf bytes.Buffer
		err := tt.Execute(&buf, ttVars)
		return buf.String(), err
	}})
	rt, err := raymond.Parse(read(t, "literal.hbs"))
	require.NoError(t, err)
	out = append(out, variant{name: "raw/raymond", raw: func() (string, error) { return rt.Exec(v) }})
	pt, err := pongo2.FromString(read(t, "literal.j2"))
	require.NoError(t, err)
	out = append(out, variant{name: "raw/pongo2", raw: func() (string, error) { return pt.Execute(pongo2.Context(v)) }})

	// The same renders into one buffer reused from call to call, with no
	// string made: what a careful caller without rolemark does. raymond
	// renders only to a string, so its variant is the one above again.
	var ttBuf bytes.Buffer
	out = append(out, variant{name: "raw-reused/text-template", raw: func() (string, error) {
		ttBuf.Reset()
		err := tt.Execute(&ttBuf, ttVars)
		return unsafeString(ttBuf.Bytes()), err
	}})
	out = append(out, variant{name: "raw-reused/raymond", raw: func() (string, error) { return rt.Exec(v) }})
	var ptBuf bytes.Buffer
	out = append(out, variant{name: "raw-reused/pongo2", raw: func() (string, error) {
		ptBuf.Reset()
		err := pt.ExecuteWriterUnbuffered(pongo2.Context(v), &ptBuf)
		return unsafeString(ptBuf.Bytes()), err
	}})

	// The reused-buffer renders again on the typed values.
	var ttBufT bytes.Buffer
	out = append(out, variant{name: "raw-reused-typed/text-template", raw: func() (string, error) {
		ttBufT.Reset()
		err := tt.Execute(&ttBufT, tv)
		return unsafeString(ttBufT.Bytes()), err
	}})
	out = append(out, variant{name: "raw-reused-typed/raymond", raw: func() (string, error) { return rt.Exec(tv) }})
	var ptBufT bytes.Buffer
	out = append(out, variant{name: "raw-reused-typed/pongo2", raw: func() (string, error) {
		ptBufT.Reset()
		err := pt.ExecuteWriterUnbuffered(pongo2.Context(tv), &ptBufT)
		return unsafeString(ptBufT.Bytes()), err
	}})

	// Dotprompt: the marker style with Dotprompt's role name for the model.
	dpSrc := strings.ReplaceAll(read(t, "marker.hbs"), `{{role "assistant"}}`, `{{role "model"}}`)
	dp := dotprompt.NewDotprompt(nil)
	fn, err := dp.Compile(dpSrc, nil)
	require.NoError(t, err)
	dpMsgs := func(r dotprompt.RenderedPrompt, err error) ([]msg, error) {
		var out []msg
		for _, m := range r.Messages {
			var text strings.Builder
			for _, p := range m.Content {
				if tp, ok := p.(*dotprompt.TextPart); ok {
					text.WriteString(tp.Text)
				}
			}
			out = append(out, norm(string(m.Role), text.String()))
		}
		return out, err
	}
	out = append(out, variant{name: "dotprompt/compiled", render: func() ([]msg, error) {
		return dpMsgs(fn(&dotprompt.DataArgument{Input: v}, nil))
	}})
	// Render parses and compiles on every call, as Genkit's per-request path
	// does. It gets its own instance: Compile stores the new template in the
	// instance, which the function compiled above reads at every call.
	dpRender := dotprompt.NewDotprompt(nil)
	out = append(out, variant{name: "dotprompt/render", render: func() ([]msg, error) {
		return dpMsgs(dpRender.Render(dpSrc, &dotprompt.DataArgument{Input: v}, nil))
	}})

	// langchaingo: one message template per message, in both of its formats.
	for _, f := range []struct {
		name   string
		format prompts.TemplateFormat
		ext    string
	}{{"gotemplate", prompts.TemplateFormatGoTemplate, ".tmpl"}, {"jinja2", prompts.TemplateFormatJinja2, ".j2"}} {
		bodies := messageBodies(t, read(t, "literal"+f.ext))
		mk := func(i int) prompts.PromptTemplate {
			return prompts.PromptTemplate{Template: bodies[i], TemplateFormat: f.format,
				InputVariables: []string{"name", "company", "date", "document", "question"}}
		}
		chatTpl := prompts.NewChatPromptTemplate([]prompts.MessageFormatter{
			prompts.SystemMessagePromptTemplate{Prompt: mk(0)},
			prompts.HumanMessagePromptTemplate{Prompt: mk(1)},
			prompts.AIMessagePromptTemplate{Prompt: mk(2)},
			prompts.HumanMessagePromptTemplate{Prompt: mk(3)},
		})
		out = append(out, variant{name: "langchaingo/" + f.name, render: func() ([]msg, error) {
			msgs, err := chatTpl.FormatMessages(v)
			var r []msg
			for _, m := range msgs {
				r = append(r, norm(string(m.GetType()), m.GetContent()))
			}
			return r, err
		}})
	}
	return out
}

// messageBodies returns the bodies of the literal <message> tags of a
// template, which langchaingo takes one by one.
func messageBodies(t testing.TB, src string) []string {
	var bodies []string
	for _, part := range strings.Split(src, "</message>") {
		if i := strings.Index(part, ">"); i >= 0 && strings.Contains(part, "<message") {
			bodies = append(bodies, part[i+1:])
		}
	}
	require.Len(t, bodies, 4)
	return bodies
}

// TestEquivalence checks that every variant yields the same messages before
// any of them is timed. The raw engines' markup is parsed by roleparse for
// the comparison (the benchmarks time their render alone).
func TestEquivalence(t *testing.T) {
	var want []msg
	for _, v := range variants(t) {
		t.Run(v.name, func(t *testing.T) {
			var got []msg
			if v.render != nil {
				var err error
				got, err = v.render()
				require.NoError(t, err)
			} else {
				s, err := v.raw()
				require.NoError(t, err)
				msgs, err := roleparse.Parse(s)
				require.NoError(t, err)
				for _, m := range msgs {
					got = append(got, norm(string(m.Role), m.Text()))
				}
			}
			require.Len(t, got, 4)
			if want == nil {
				want = got
			}
			require.Equal(t, want, got)
		})
	}
}

// BenchmarkRender times every variant on the same prompt, in one run.
func BenchmarkRender(b *testing.B) {
	for _, v := range variants(b) {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var err error
				switch {
				case v.timed != nil:
					err = v.timed()
				case v.render != nil:
					_, err = v.render()
				default:
					_, err = v.raw()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// parallelCases are what BenchmarkParallel and BenchmarkParallelSerial run:
// rolemark's render to messages in each engine, and each raw engine
// rendering the same text, so that the speed-up of rolemark can be read
// beside the speed-up of the engine it wraps. Peers are left out:
// Dotprompt's compiled function races when called concurrently (see
// README.md).
func parallelCases(b *testing.B) []struct {
	name string
	run  func() error
} {
	v := vars(b)
	ctx := context.Background()
	var cases []struct {
		name string
		run  func() error
	}
	for _, e := range engines {
		tpl := rolemarkTemplate(b, "literal"+e.ext)
		cases = append(cases, struct {
			name string
			run  func() error
		}{e.name, func() error { _, err := tpl.Messages(ctx, v); return err }})
	}
	tt := template.Must(template.New("p").Parse(read(b, "literal.tmpl")))
	rt, err := raymond.Parse(read(b, "literal.hbs"))
	require.NoError(b, err)
	pt, err := pongo2.FromString(read(b, "literal.j2"))
	require.NoError(b, err)
	cases = append(cases, []struct {
		name string
		run  func() error
	}{
		{"raw-text-template", func() error { var buf bytes.Buffer; return tt.Execute(&buf, v) }},
		{"raw-raymond", func() error { _, err := rt.Exec(v); return err }},
		{"raw-pongo2", func() error { _, err := pt.Execute(pongo2.Context(v)); return err }},
	}...)
	return cases
}

// BenchmarkParallel renders from GOMAXPROCS goroutines sharing one compiled
// template; BenchmarkParallelSerial does the same work on one goroutine, for
// the speed-up ratio.
func BenchmarkParallel(b *testing.B) {
	for _, c := range parallelCases(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := c.run(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

func BenchmarkParallelSerial(b *testing.B) {
	for _, c := range parallelCases(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// unsafeString returns b as a string without copying: the reused-buffer
// variants hand their output to the equivalence test only, which reads it
// before the next render.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// markup returns about size bytes of rendered markup: the benchmark prompt
// rendered by rolemark and repeated.
func markup(b *testing.B, size int) string {
	tpl := rolemarkTemplate(b, "literal.tmpl")
	one, err := tpl.Render(context.Background(), vars(b))
	require.NoError(b, err)
	one += "\n"
	if size <= len(one) {
		return one
	}
	return strings.Repeat(one, size/len(one)+1)
}

var sizes = []struct {
	name string
	size int
}{{"1.5KB", 0}, {"64KB", 64 << 10}, {"1MB", 1 << 20}}

// The benchmark prompt's values are dense with characters that escape (one
// reference in every 33 bytes of markup). The density inputs are 1 MB of
// messages of English text (about 370 bytes each, as in the benchmark
// prompt) with one reference in every gap bytes: 280 for English prose
// (measured on licence and manual text), 70 for technical text (Markdown
// with code, Go source) and 14 for JSON.
var gaps = []int{280, 70, 14}

// parseInputs are the inputs of BenchmarkParse and BenchmarkFloor.
func parseInputs(b *testing.B) []struct{ name, in string } {
	var ins []struct{ name, in string }
	for _, s := range sizes {
		ins = append(ins, struct{ name, in string }{s.name, markup(b, s.size)})
	}
	for _, g := range gaps {
		ins = append(ins, struct{ name, in string }{fmt.Sprintf("1MB-gap%d", g), fixture.ProseMarkup(1<<20, g)})
	}
	return ins
}

// BenchmarkParse parses markup of three sizes; BenchmarkFloor walks every
// </message> of the same input with strings.Index, the floor a scanner can
// be compared with.
func BenchmarkParse(b *testing.B) {
	for _, s := range parseInputs(b) {
		b.Run(s.name, func(b *testing.B) { fixture.BenchParse(b, s.in) })
	}
}

func BenchmarkFloor(b *testing.B) {
	for _, s := range parseInputs(b) {
		b.Run(s.name, func(b *testing.B) { fixture.BenchFloor(b, s.in) })
	}
}
