package gotmpl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/roleparse"
)

func benchInput(b *testing.B, file string) (string, map[string]any) {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "bench", file))
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "vars.json"))
	if err != nil {
		b.Fatal(err)
	}
	var vars map[string]any
	if err := json.Unmarshal(raw, &vars); err != nil {
		b.Fatal(err)
	}
	return string(src), vars
}

// BenchmarkRender compares, in one run, raw text/template rendering the
// benchmark prompt with no rolemark, rolemark's render to messages in each
// role style, and parsing the rendered markup alone.
func BenchmarkRender(b *testing.B) {
	ctx := context.Background()
	b.Run("raw-text-template", func(b *testing.B) {
		src, vars := benchInput(b, "literal.tmpl")
		t := template.Must(template.New("p").Parse(src))
		var buf bytes.Buffer
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf.Reset()
			if err := t.Execute(&buf, vars); err != nil {
				b.Fatal(err)
			}
			_ = buf.String()
		}
	})
	for _, style := range []string{"literal", "marker", "block", "literal-general", "marker-general", "block-general"} {
		b.Run("messages-"+style, func(b *testing.B) {
			file, general := strings.CutSuffix(style, "-general")
			src, vars := benchInput(b, file+".tmpl")
			e := gotmpl.New()
			if general {
				e = gotmpl.NewGeneral()
			}
			tpl, err := engine.NewSet(e).Parse("gotmpl", style, src)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := tpl.Messages(ctx, vars); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("parse-only", func(b *testing.B) {
		src, vars := benchInput(b, "literal.tmpl")
		tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "p", src)
		if err != nil {
			b.Fatal(err)
		}
		markup, err := tpl.Render(ctx, vars)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(markup)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := roleparse.Parse(markup); err != nil {
				b.Fatal(err)
			}
		}
	})
}
