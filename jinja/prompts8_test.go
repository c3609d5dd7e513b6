package jinja_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// prompts8Cases holds real prompt templates of other projects (promptsource,
// lm-evaluation-harness, SWE-agent, outlines, Haystack, Semantic Kernel,
// promptflow, griptape) with synthesized values and what Python's Jinja2
// renders for each (internal/jinja2/testdata/oracle/convert/prompts8.py).
const prompts8Cases = "../internal/jinja2/testdata/oracle/cases/prompts8.json"

// TestPrompts8Messages renders the templates of prompts8.json through the
// jinja engine and requires the messages roleparse reads from Jinja2's
// output: one user message of that text, trimmed, or none when it is
// blank. Only the cases the engine's settings render as Jinja2 does are
// taken: Jinja2's default whitespace (keep_trailing_newline changes only
// what trimming removes), values free of "<" and "&" (which the engine
// escapes), of floats and None (which it prints as every engine does, as it
// does a float the template computes) and of Python's own types, and an
// output, not an error. A template starting with "---" is left out too (to
// the engine, front matter).
func TestPrompts8Messages(t *testing.T) {
	raw, err := os.ReadFile(prompts8Cases)
	require.NoError(t, err)
	var doc struct {
		Templates map[string]string `json:"templates"`
		Cases     []struct {
			ID     string          `json:"id"`
			Ref    string          `json:"template_ref"`
			Ctx    json.RawMessage `json:"context"`
			Env    map[string]any  `json:"env"`
			Expect map[string]any  `json:"expect"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	set := engine.NewSet(jinja.New())
	compared := 0
	for _, c := range doc.Cases {
		out, ok := c.Expect["output"].(string)
		if !ok || !engineEnv(c.Env) {
			continue
		}
		src := doc.Templates[c.Ref]
		if strings.HasPrefix(src, "---") || makesFloats(src) {
			continue
		}
		vars, ok := engineVars(c.Ctx)
		if !ok {
			continue
		}
		want, err := roleparse.Parse(out)
		if err != nil {
			continue // Jinja2's output is not markup (a "<" of the template's own text)
		}
		compared++
		tpl, err := set.Parse("jinja", "t.jinja", src)
		if !assert.NoError(t, err, c.ID) {
			continue
		}
		msgs, err := tpl.Messages(context.Background(), vars)
		if assert.NoError(t, err, c.ID) {
			assert.Equal(t, want, msgs, c.ID)
		}
	}
	t.Logf("%d of %d cases compared as messages", compared, len(doc.Cases))
	require.Greater(t, compared, 1000)
}

// codeOf matches the tags and expressions of a template.
var codeOf = regexp.MustCompile(`(?s)\{[{%].*?[%}]\}`)

// makesFloats reports whether a tag or expression of src may make a float
// (round, float, a division), which the engine prints as every engine does.
func makesFloats(src string) bool {
	for _, code := range codeOf.FindAllString(src, -1) {
		if strings.Contains(code, "round") || strings.Contains(code, "float") || strings.Contains(code, "/") {
			return true
		}
	}
	return false
}

// engineEnv reports whether env renders as the engine does.
func engineEnv(env map[string]any) bool {
	for k, v := range env {
		switch k {
		case "keep_trailing_newline", "sandbox":
		default:
			if v != false {
				return false
			}
		}
	}
	return true
}

// engineVars decodes a case's context for the engine, or reports false
// where it holds what the engine prints otherwise than Jinja2.
func engineVars(raw json.RawMessage) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var ctx map[string]any
	if dec.Decode(&ctx) != nil {
		return nil, false
	}
	ok := true
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case nil:
			ok = false
		case string:
			if strings.ContainsAny(x, "<&") {
				ok = false
			}
		case json.Number:
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil {
				ok = false
			}
			return int(n)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k, e := range x {
				if strings.HasPrefix(k, "__") || strings.ContainsAny(k, "<&") {
					ok = false
				}
				x[k] = walk(e)
			}
		}
		return v
	}
	for k, v := range ctx {
		ctx[k] = walk(v)
	}
	return ctx, ok
}
