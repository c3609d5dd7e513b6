package chattemplate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// BenchmarkCorpusRender renders every template of the corpus on the
// conversation BenchmarkCorpusVsJinja2 times it on (the first of
// bench_all.py's PREFERRED that Jinja2 renders), without running Python,
// reporting cpu-ns/op as it does: for profiling one template's rendering
// and comparing builds,
//
//	go test ./chat/format/chattemplate -run '^$' -bench 'CorpusRender/000$' -cpuprofile cpu.out
func BenchmarkCorpusRender(b *testing.B) {
	corpusRender(b, fresh)
}

// BenchmarkCorpusAppendRender is BenchmarkCorpusRender with AppendRender
// into one buffer reused from rendering to rendering, as
// BenchmarkCorpusAppendVsJinja2 times it, without running Python:
//
//	go test ./chat/format/chattemplate -run '^$' -bench 'CorpusAppendRender/110$' -cpuprofile cpu.out
func BenchmarkCorpusAppendRender(b *testing.B) {
	corpusRender(b, appended)
}

// BenchmarkCorpusStringAlloc makes, for every template of
// BenchmarkCorpusRender, a fresh string as long as the prompt it renders
// and nothing else: the part of Render's figure that is Go's allocator
// and collector rather than the template (Render's cpu-ns is about
// AppendRender's plus this; docs/PERFORMANCE.md):
//
//	go test ./chat/format/chattemplate -run '^$' -bench 'CorpusStringAlloc/090$' -benchtime 200000x
func BenchmarkCorpusStringAlloc(b *testing.B) {
	corpusRender(b, stringOnly)
}

// renderMode is what corpusRender times.
type renderMode int

const (
	fresh      renderMode = iota // Render, a fresh string
	appended                     // AppendRender into a reused buffer
	stringOnly                   // a fresh string of the prompt's length
)

// corpusRender is BenchmarkCorpusRender, timing what mode says.
func corpusRender(b *testing.B, mode renderMode) {
	sources, convs, results := readCorpus(b)
	renders := map[[2]string]bool{}
	for _, r := range results {
		if r.Output != nil {
			renders[[2]string{r.Template, r.Conversation}] = true
		}
	}
	preferred := []string{"tools-two-calls-answer", "tools-call-result", "system-user-assistant-user", "user"}
	for _, s := range sources {
		conv := ""
		for _, p := range preferred {
			if renders[[2]string{s.File, p}] {
				conv = p
				break
			}
		}
		if conv == "" {
			continue
		}
		b.Run(strings.TrimSuffix(s.File, ".jinja"), func(b *testing.B) {
			tpl, err := s.compile()
			if err != nil {
				b.Fatal(err)
			}
			msgs, opts := convs[conv].benchInput(b, tpl, s.File+" / "+conv)
			ctx := context.Background()
			prompt, err := tpl.Render(ctx, msgs, opts...)
			if err != nil {
				b.Fatal(err)
			}
			t := cpubench.Start(b)
			switch mode {
			case appended:
				var buf []byte
				for i := 0; i < b.N; i++ {
					if buf, err = tpl.AppendRender(ctx, buf[:0], msgs, opts...); err != nil {
						b.Fatal(err)
					}
				}
			case stringOnly:
				// kept in a slice on the heap, so that each string is
				// made there as Render's result is
				src, keep := []byte(prompt), make([]string, 1)
				for i := 0; i < b.N; i++ {
					keep[0] = string(src)
				}
				if keep[0] != prompt {
					b.Fatal("the string differs from the prompt")
				}
			default:
				for i := 0; i < b.N; i++ {
					if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
						b.Fatal(err)
					}
				}
			}
			t.Stop(0)
		})
	}
}

// BenchmarkCorpusRenderAlternate is BenchmarkCorpusRender for a few
// templates with two conversations in turn (the corpus's, and the same
// with another first message), as two clients of one Template would
// render them: no rendering finds the conversation the one before kept.
func BenchmarkCorpusRenderAlternate(b *testing.B) {
	sources, convs, _ := readCorpus(b)
	for _, s := range sources {
		name := strings.TrimSuffix(s.File, ".jinja")
		if name != "000" && name != "002" && name != "093" {
			continue
		}
		b.Run(name, func(b *testing.B) {
			tpl, err := s.compile()
			if err != nil {
				b.Fatal(err)
			}
			c := convs["tools-two-calls-answer"]
			a := c.messages(b)
			other := c.messages(b)
			other[0] = chat.Text(other[0].Role, other[0].Text()+" Be brief.")
			opts := []format.Option{format.Tools(c.tools()...), format.GenerationPrompt()}
			ctx := context.Background()
			t := cpubench.Start(b)
			for i := 0; i < b.N; i++ {
				msgs := a
				if i&1 == 1 {
					msgs = other
				}
				if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
					b.Fatal(err)
				}
			}
			t.Stop(0)
		})
	}
}

// BenchmarkRenderFixedCost renders a template that prints one message's
// text, so that what it measures is what every rendering costs around
// the template itself: the options, the kept conversation, the
// special-token check, the variables, the render state, the output.
func BenchmarkRenderFixedCost(b *testing.B) {
	renderFixedCost(b, func(b *testing.B, tpl *chattemplate.Template, msgs []chat.Message, opts []format.Option) {
		ctx := context.Background()
		for i := 0; i < b.N; i++ {
			if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRenderFixedCostAppend is BenchmarkRenderFixedCost with
// AppendRender into one buffer reused across iterations: the fixed cost
// without the output string and the collector's share of it.
func BenchmarkRenderFixedCostAppend(b *testing.B) {
	renderFixedCost(b, func(b *testing.B, tpl *chattemplate.Template, msgs []chat.Message, opts []format.Option) {
		ctx := context.Background()
		var buf []byte
		for i := 0; i < b.N; i++ {
			var err error
			if buf, err = tpl.AppendRender(ctx, buf[:0], msgs, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// renderFixedCost is BenchmarkRenderFixedCost with loop rendering b.N
// times between the CPU-time readings.
func renderFixedCost(b *testing.B, loop func(*testing.B, *chattemplate.Template, []chat.Message, []format.Option)) {
	tpl, err := chattemplate.New("{{ messages[0].content }}", chattemplate.Token("bos_token", "<s>"),
		chattemplate.Token("eos_token", "</s>"), chattemplate.SpecialTokens("[INST]", "[/INST]"))
	if err != nil {
		b.Fatal(err)
	}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "Hello")}
	tools := []chat.Tool{{Name: "get_weather", Description: "The weather in a city.",
		Parameters: []byte(`{"type": "object", "properties": {"city": {"type": "string"}}}`)}}
	for _, c := range []struct {
		name string
		opts []format.Option
	}{
		{"none", nil},
		{"generation", []format.Option{format.GenerationPrompt()}},
		{"tools", []format.Option{format.Tools(tools...), format.GenerationPrompt()}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, err := tpl.Render(context.Background(), msgs, c.opts...); err != nil {
				b.Fatal(err)
			}
			t := cpubench.Start(b)
			loop(b, tpl, msgs, c.opts)
			t.Stop(0)
		})
	}
}
