package handlebars_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aymerick/raymond"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/handlebars"
)

// The benchmark prompt: three messages, about 1.5 KB rendered.
var (
	benchLiteral = `<message role="system">You are a support assistant for {{company}}. ` + strings.Repeat("Answer politely, briefly and only about our products. ", 12) + `</message>
<message role="user">{{question}}</message>
<message role="assistant">{{answer}}</message>`
	benchBlock = `{{#system}}You are a support assistant for {{company}}. ` + strings.Repeat("Answer politely, briefly and only about our products. ", 12) + `{{/system}}
{{#user}}{{question}}{{/user}}
{{#assistant}}{{answer}}{{/assistant}}`
	benchVars = map[string]any{
		"company":  "Acme & Sons",
		"question": strings.Repeat(`How do I reset my "router" <model X>? `, 8),
		"answer":   "Hold the reset button for ten seconds.",
	}
)

// BenchmarkMessages renders the prompt and parses its markup into messages
// through rolemark (engine.Template.Messages).
func BenchmarkMessages(b *testing.B) {
	for _, bc := range []struct{ name, src string }{{"literal", benchLiteral}, {"block", benchBlock}} {
		b.Run(bc.name, func(b *testing.B) {
			benchTemplate(b, bc.src, func(ctx context.Context, tpl *engine.Template) error {
				_, err := tpl.Messages(ctx, benchVars)
				return err
			})
		})
	}
}

// BenchmarkRender renders the prompt's markup through rolemark, without
// parsing it into messages.
func BenchmarkRender(b *testing.B) {
	benchTemplate(b, benchBlock, func(ctx context.Context, tpl *engine.Template) error {
		_, err := tpl.Render(ctx, benchVars)
		return err
	})
}

// benchTemplate times run on src, parsed by rolemark.
func benchTemplate(b *testing.B, src string, run func(ctx context.Context, tpl *engine.Template) error) {
	tpl, err := engine.NewSet(handlebars.New()).Parse("handlebars", "bench.hbs", src)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := run(ctx, tpl); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawRaymond renders the same prompt with raymond alone: no
// checks, no recover, no message parsing. The block variant uses a minimal
// per-template block helper.
func BenchmarkRawRaymond(b *testing.B) {
	for _, bc := range []struct{ name, src string }{{"literal", benchLiteral}, {"block", benchBlock}} {
		b.Run(bc.name, func(b *testing.B) {
			tpl, err := raymond.Parse(bc.src)
			if err != nil {
				b.Fatal(err)
			}
			for _, role := range []string{"system", "user", "assistant"} {
				tag := `<message role="` + role + `">`
				tpl.RegisterHelper(role, func(o *raymond.Options) raymond.SafeString {
					return raymond.SafeString(tag + o.Fn() + "</message>")
				})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tpl.Exec(benchVars); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile compiles the block prompt with rolemark (collecting the
// lexer's tokens, checking the tree, parsing with raymond) and with raymond
// alone.
func BenchmarkCompile(b *testing.B) {
	b.Run("rolemark", func(b *testing.B) {
		e := handlebars.New()
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := e.Compile("bench.hbs", benchBlock, driver.Config{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raymond", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := raymond.Parse(benchBlock); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompileOneLongLine compiles a prompt of 20,000 variables on one
// line: placing each variable counted the line from its start, which made
// compiling quadratic in the line's length.
func BenchmarkCompileOneLongLine(b *testing.B) {
	src := `<message role="user">` + strings.Repeat("{{a}}", 20000) + `</message>`
	e := handlebars.New()
	for b.Loop() {
		if _, err := e.Compile("long.hbs", src, driver.Config{}); err != nil {
			b.Fatal(err)
		}
	}
}
