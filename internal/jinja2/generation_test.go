package jinja2

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenderGenerationOracle renders the cases of
// testdata/generation/spans.json, which Python's Jinja2 rendered with an
// extension that records {% generation %} spans as transformers'
// AssistantTracker does (spans.py), and requires the same output and spans.
func TestRenderGenerationOracle(t *testing.T) {
	raw, err := os.ReadFile("testdata/generation/spans.json")
	require.NoError(t, err)
	var doc struct {
		Cases []struct {
			Name      string            `json:"name"`
			Template  string            `json:"template"`
			Vars      map[string]any    `json:"vars"`
			Templates map[string]string `json:"templates"`
			Output    string            `json:"output"`
			Spans     [][2]int          `json:"spans"`
		} `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // ints stay ints, as Python's json reads them
	require.NoError(t, dec.Decode(&doc))
	require.NotEmpty(t, doc.Cases)
	for _, tc := range doc.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			opts := hfProfile()
			if tc.Templates != nil {
				opts = append(opts, WithLoader(func(name string) (string, error) {
					if s, ok := tc.Templates[name]; ok {
						return s, nil
					}
					return "", fmt.Errorf("%w: %s", fs.ErrNotExist, name)
				}))
			}
			tmpl, err := New(opts...).Parse(tc.Name, tc.Template)
			require.NoError(t, err)
			vars := map[string]Value{}
			for k, v := range tc.Vars {
				vars[k] = FromGo(v)
			}
			out, spans, err := tmpl.RenderGeneration(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tc.Output, out, "template %q", tc.Template)
			want := []Span{}
			for _, s := range tc.Spans {
				want = append(want, Span{Start: s[0], End: s[1]})
			}
			if spans == nil {
				spans = []Span{}
			}
			assert.Equal(t, want, spans, "template %q", tc.Template)
			// Render writes the same without recording
			plain, err := tmpl.Render(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tc.Output, plain)
		})
	}
}

// TestRenderGenerationReuse checks that a render's record does not leak
// into the next render from the same pool, and that AppendRender's base
// does not shift the spans.
func TestRenderGenerationReuse(t *testing.T) {
	tmpl, err := New(GenerationTag()).Parse("t", "ab{% generation %}{{ x }}{% endgeneration %}")
	require.NoError(t, err)
	for _, x := range []string{"c", "dd"} {
		out, spans, err := tmpl.RenderGeneration(context.Background(), map[string]Value{"x": StrV(x)})
		require.NoError(t, err)
		assert.Equal(t, "ab"+x, out)
		assert.Equal(t, []Span{{2, 2 + len(x)}}, spans)
		got, err := tmpl.AppendRender(context.Background(), []byte("prefix"), map[string]Value{"x": StrV(x)})
		require.NoError(t, err)
		assert.Equal(t, "prefixab"+x, string(got))
	}
}

// A render that records no spans (Render, AppendRender) writes a
// generation block's body where the block prints it, as it writes a
// printed macro call: no captured str per block (two a rendering of a
// chat template's assistant turns). Its scope is the block's own still.
func TestGenerationWritesInPlace(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"plain", nil, "<a!10><b!10>"},
		{"sandbox", []Option{Sandbox()}, "<a!10><b!10>"},
		{"autoescape", []Option{Autoescape(nil)}, "<a!10><b!10>"},
	} {
		tmpl, err := New(append(tc.opts, GenerationTag())...).Parse("t", "{% set x = 0 %}{% for m in ms %}<{% generation %}{{ m ~ '!' }}{% set x = 1 %}{{ x }}{% endgeneration %}{{ x }}>{% endfor %}")
		require.NoError(t, err)
		vars := map[string]Value{"ms": ListV([]Value{StrV("a"), StrV("b")})}
		ctx := context.Background()
		buf, err := tmpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		out, spans, err := tmpl.RenderGeneration(ctx, vars)
		require.NoError(t, err)
		assert.Equal(t, out, string(buf))
		assert.Equal(t, []Span{{1, len(out)/2 - 2}, {len(out)/2 + 1, len(out) - 2}}, spans, tc.name)
		assert.Equal(t, tc.want, out, tc.name)
		assert.Zero(t, renderAllocs(t, func() { buf, _ = tmpl.AppendRender(ctx, buf[:0], vars) }), tc.name)
	}
}
