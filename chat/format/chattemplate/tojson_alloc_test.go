package chattemplate

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// tojson and tojson(indent=n), the forms chat templates use for tool
// schemas, take writers made once: a call allocates its str alone, as
// tojson without arguments does, whatever the indent. The other
// parameters still build a writer per call, and give the same text.
func TestToJSONIndentTakesAWriterMadeOnce(t *testing.T) {
	d := jinja2.NewDict(2)
	d.SetStr("b", jinja2.ListV([]jinja2.Value{jinja2.IntV(1), jinja2.StrV("é")}))
	d.SetStr("a", jinja2.NoneV())
	vars := map[string]jinja2.Value{"v": jinja2.DictV(d)}
	env := chatEnv(time.Now, &memo{})
	ctx := context.Background()
	render := func(src string) (string, float64) {
		tpl, err := env.Parse("t", src)
		require.NoError(t, err)
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		out := string(buf)
		if raceEnabled {
			return out, 0 // sync.Pool drops pooled state at random
		}
		return out, testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
	}
	out, plain := render("{{ v|tojson }}")
	assert.Equal(t, `{"b": [1, "é"], "a": null}`, out)
	for _, tc := range []struct{ indent, want string }{
		{"4", "{\n    \"b\": [\n        1,\n        \"é\"\n    ],\n    \"a\": null\n}"},
		{"0", "{\n\"b\": [\n1,\n\"é\"\n],\n\"a\": null\n}"},
		{"-3", "{\n\"b\": [\n1,\n\"é\"\n],\n\"a\": null\n}"},
		{"true", "{\n \"b\": [\n  1,\n  \"é\"\n ],\n \"a\": null\n}"},
		{"8", "{\n        \"b\": [\n                1,\n                \"é\"\n        ],\n        \"a\": null\n}"},
	} {
		out, allocs := render("{{ v|tojson(indent=" + tc.indent + ") }}")
		assert.Equal(t, tc.want, out, "indent=%s", tc.indent)
		assert.Equal(t, plain, allocs, "indent=%s", tc.indent)
	}
	out, _ = render("{{ v|tojson(indent=10) }}|{{ v|tojson(indent='\t') }}|{{ v|tojson(ensure_ascii=true, sort_keys=true, separators=(',', ':')) }}")
	assert.Equal(t, "{\n          \"b\": [\n                    1,\n                    \"é\"\n          ],\n          \"a\": null\n}|"+
		"{\n\t\"b\": [\n\t\t1,\n\t\t\"é\"\n\t],\n\t\"a\": null\n}|"+
		`{"a":null,"b":[1,"\u00e9"]}`, out, "past the writers made once")
}

// tojson(indent=n) of a tool list, a tool or its parts is made once per
// tool list and kept with it, as tojson's text is: a rendering that
// prints the tools' schemas indented allocates what one printing them
// unindented does, and the texts are json.dumps's.
func TestToolSchemaIndentKept(t *testing.T) {
	tools := format.Tools(chat.Tool{Name: "get_weather", Description: "Weather", Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)})
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	render := func(src string) (string, float64) {
		tpl, err := New(src)
		require.NoError(t, err)
		out, err := tpl.Render(context.Background(), msgs, tools)
		require.NoError(t, err)
		if raceEnabled {
			return out, 0 // sync.Pool drops pooled state at random
		}
		return out, testing.AllocsPerRun(100, func() { _, _ = tpl.Render(context.Background(), msgs, tools) })
	}
	plainOut, plain := render("{% for t in tools %}{{ t|tojson }}{{ t.function.parameters|tojson }}{% endfor %}{{ tools|tojson }}")
	out, indented := render("{% for t in tools %}{{ t|tojson(indent=4) }}{{ t.function.parameters|tojson(indent=0) }}{% endfor %}{{ tools|tojson(indent=2) }}")
	assert.Equal(t, `{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {
                    "type": "string"
                }
            }
        }
    }
}{
"type": "object",
"properties": {
"city": {
"type": "string"
}
}
}[
  {
    "type": "function",
    "function": {
      "name": "get_weather",
      "description": "Weather",
      "parameters": {
        "type": "object",
        "properties": {
          "city": {
            "type": "string"
          }
        }
      }
    }
  }
]`, out)
	assert.NotEqual(t, plainOut, out)
	assert.Equal(t, plain, indented)
}

// tojson printed at once (alone, in a printed + or ~ chain, or set to a
// name only printed or sliced and printed, as transformers' Mistral and
// Llama 3 templates print a tool call's function and a tool's result)
// writes its JSON into the output: a rendering into a reused buffer
// allocates nothing, and the text is the filter's.
func TestToJSONPrintedWritesIntoTheOutput(t *testing.T) {
	fn := jinja2.NewDict(2)
	fn.SetStr("name", jinja2.StrV("f"))
	fn.SetStr("arguments", jinja2.StrV(`{"a": 1}`))
	vars := map[string]jinja2.Value{"fn": jinja2.DictV(fn), "s": jinja2.StrV("q\"é\n"), "n": jinja2.IntV(3)}
	env := chatEnv(time.Now, &memo{})
	ctx := context.Background()
	for _, tc := range []struct{ src, want string }{
		{"{{ fn|tojson }}{{ s|tojson }}{{ fn|tojson(indent=1) }}", `{"name": "f", "arguments": "{\"a\": 1}"}"q\"é\n"{` + "\n" + ` "name": "f",` + "\n" + ` "arguments": "{\"a\": 1}"` + "\n}"},
		{`{{ '{"content": ' + (s|tojson) + '}' }}{{ 'n' ~ (n|tojson) ~ '.' }}`, `{"content": "q\"é\n"}n3.`},
		{`{% for i in [1, 2] %}{% set out = fn|tojson %}{{ out[:-1] }}{{ ', "id": "' ~ i ~ '"}' }}{% endfor %}`,
			`{"name": "f", "arguments": "{\"a\": 1}", "id": "1"}{"name": "f", "arguments": "{\"a\": 1}", "id": "2"}`},
	} {
		tpl, err := env.Parse("t", tc.src)
		require.NoError(t, err)
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(buf), tc.src)
		if raceEnabled {
			continue // sync.Pool drops pooled state at random
		}
		assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }), tc.src)
	}
}
