package jinja2

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// TestAppendJSONStr: the one-pass tojson (pyjson.AppendHTMLSafeString) of a str writes what json.dumps
// followed by htmlsafe_json_dumps's replacements writes (the two-pass
// path it replaces for strs), for every byte and for random mixes of
// ASCII, escapes, non-ASCII runes, astral runes and invalid bytes.
func TestAppendJSONStr(t *testing.T) {
	twoPass := func(s string) string { return htmlSafeJSON(pyjson.AppendString(nil, s, true)) }
	for b := range 256 {
		s := "a" + string([]byte{byte(b)}) + "z"
		require.Equal(t, twoPass(s), string(pyjson.AppendHTMLSafeString(nil, s)), "byte %#x", b)
	}
	pieces := []string{"abc", " ", "\n", "\t", "\"", "\\", "<", ">", "&", "'", "\x00", "\x1f", "\x7f",
		"é", "€", "😀", "\ufffd", "\xff", "\xe2\x82", "line 0001: ok\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		require.Equal(t, twoPass(s), string(pyjson.AppendHTMLSafeString([]byte("x"), s))[1:], "%q", s)
	}
}

// TestJSONPrint: {{ x|tojson }} written straight into the output prints
// what the filter's Markup prints, for strs and other values, under
// autoescape, with a finalize hook, and with tojson replaced by the
// caller's own filter (which the direct path must leave to it).
func TestJSONPrint(t *testing.T) {
	vars := map[string]Value{
		"s": StrV("a <b> & 'c'\n\"é😀\""), "n": IntV(3),
		"d": FromGo(map[string]any{"k": []any{"x<", 1.5}}), "u": FromGo("plain"),
	}
	upper := func(v Value) Value {
		if v.kind == KindStr {
			return StrV(strings.ToUpper(v.s))
		}
		return v
	}
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"plain", nil, `"a \u003cb\u003e \u0026 \u0027c\u0027\n\"\u00e9\ud83d\ude00\""|3|{"k": ["x\u003c", 1.5]}|"plain"`},
		{"autoescape", []Option{Autoescape(htmlEscapeStr)}, `"a \u003cb\u003e \u0026 \u0027c\u0027\n\"\u00e9\ud83d\ude00\""|3|{"k": ["x\u003c", 1.5]}|"plain"`},
		{"finalize", []Option{WithFinalize(upper)}, `"A \U003CB\U003E \U0026 \U0027C\U0027\N\"\U00E9\UD83D\UDE00\""|3|{"K": ["X\U003C", 1.5]}|"PLAIN"`},
		{"own filter", []Option{WithFilter("tojson", func(_ *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) {
			return StrV("J" + TypeName(v)), nil
		})}, `Jstr|Jint|Jdict|Jstr`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := New(tc.opts...).Parse("t", `{{ s|tojson }}|{{ n|tojson }}|{{ d|tojson }}|{{ u|tojson }}`)
			require.NoError(t, err)
			got, err := tmpl.Render(context.Background(), vars)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			set, err := New(tc.opts...).Parse("t", `{% set a = s|tojson %}{% set b = n|tojson %}{% set c = d|tojson %}{% set e = u|tojson %}{{ a }}|{{ b }}|{{ c }}|{{ e }}`)
			require.NoError(t, err)
			got, err = set.Render(context.Background(), vars)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
