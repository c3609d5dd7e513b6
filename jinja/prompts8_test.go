package jinja_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// prompts8Cases holds real prompt templates of thirteen other projects
// (promptsource, lm-evaluation-harness, SWE-agent, Haystack, promptflow,
// prompty, OpenHands and others) with synthesized values and what Python's
// Jinja2 renders for each (internal/jinja2/testdata/oracle/convert/prompts8.py).
const prompts8Cases = "../internal/jinja2/testdata/oracle/cases/prompts8.json"

// TestPrompts8Messages renders the templates of prompts8.json through the
// jinja engine and requires the messages roleparse reads from Jinja2's
// output: one user message of that text, trimmed, or none when it is
// blank. Only the cases the engine's settings render as Jinja2 does are
// taken: the case's trim_blocks and lstrip_blocks, as jinja.TrimBlocks and
// jinja.LStripBlocks (keep_trailing_newline changes only what trimming
// removes; the sandbox only refuses what these templates do not do), values free of "<" and "&" (which the engine
// escapes) and of whole floats
// (which it reads as ints, as json.loads reads the JSON a Go float64 most
// likely came from) and of Python's own types, and an
// output, not an error. A template starting with "---" is left out too (to
// the engine, front matter).
func TestPrompts8Messages(t *testing.T) {
	promptMessages(t, prompts8Cases, 1000)
}

// real13Cases holds more real prompt templates (Promptify, three Azure
// samples' prompty files, llama-stack's system prompts,
// lm-evaluation-harness's with dataset-like rows: tabs, no-break and
// zero-width spaces, non-BMP characters, ints, floats and lists) beside
// chat templates, which engineEnv leaves out
// (internal/jinja2/testdata/oracle/convert/real13.py).
const real13Cases = "../internal/jinja2/testdata/oracle/cases/real13.json"

// TestReal13Messages renders the prompt templates of real13.json through
// the jinja engine as TestPrompts8Messages does.
func TestReal13Messages(t *testing.T) {
	promptMessages(t, real13Cases, 300)
}

// promptMessages renders the prompt templates of the case file at path
// through the jinja engine (TestPrompts8Messages says which cases) and
// requires more than atLeast of them compared.
func promptMessages(t *testing.T, path string, atLeast int) {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc struct {
		Templates map[string]string `json:"templates"`
		Cases     []struct {
			ID     string            `json:"id"`
			Ref    string            `json:"template_ref"`
			Src    string            `json:"template"`
			Ctx    json.RawMessage   `json:"context"`
			Env    map[string]any    `json:"env"`
			Expect map[string]any    `json:"expect"`
			Loader map[string]string `json:"loader"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	// one engine for each of the whitespace settings the cases use
	sets := map[[2]bool]*engine.Set{}
	compared := 0
	for _, c := range doc.Cases {
		out, ok := c.Expect["output"].(string)
		if !ok || !engineEnv(c.Env) {
			continue
		}
		src := c.Src
		if c.Ref != "" {
			src = doc.Templates[c.Ref]
		}
		if strings.HasPrefix(src, "---") {
			continue
		}
		vars, ok := engineVars(c.Ctx)
		if !ok || !keysSorted(c.Ctx) {
			continue
		}
		want, err := roleparse.Parse(out)
		if err != nil {
			continue // Jinja2's output is not markup (a "<" of the template's own text)
		}
		// The template and what it includes, imports or extends.
		fsys := fstest.MapFS{"t.jinja": {Data: []byte(src)}}
		for name, text := range c.Loader {
			fsys[name] = &fstest.MapFile{Data: []byte(text)}
		}
		ws := [2]bool{c.Env["trim_blocks"] == true, c.Env["lstrip_blocks"] == true}
		set := sets[ws]
		if set == nil {
			var opts []jinja.Option
			if ws[0] {
				opts = append(opts, jinja.TrimBlocks())
			}
			if ws[1] {
				opts = append(opts, jinja.LStripBlocks())
			}
			set = engine.NewSet(jinja.New(opts...))
			sets[ws] = set
		}
		tpl, err := set.ParseFS(fsys, "t.jinja", engine.UseEngine("jinja"))
		if !assert.NoError(t, err, c.ID) {
			continue
		}
		msgs, err := tpl.Messages(context.Background(), vars)
		if err != nil && (strings.Contains(err.Error(), "is not supplied") || strings.Contains(err.Error(), "is undefined")) {
			continue // a name the case leaves out: Jinja2's Undefined, the engine's error
		}
		compared++
		if assert.NoError(t, err, c.ID) {
			assert.Equal(t, want, msgs, c.ID)
		}
	}
	t.Logf("%d of %d cases compared as messages", compared, len(doc.Cases))
	require.Greater(t, compared, atLeast)
}

// keysSorted reports whether every object of raw lists its keys in
// sorted order, the order a Go map gives the engine (Jinja2 iterates a
// dict in its insertion order).
func keysSorted(raw json.RawMessage) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	type frame struct {
		object bool
		last   string
		key    bool // the next string token is a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].object && stack[top].key
		if top >= 0 && stack[top].object {
			stack[top].key = !stack[top].key
		}
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{':
				stack = append(stack, frame{object: true, key: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:top]
				if n := len(stack) - 1; n >= 0 && stack[n].object {
					stack[n].key = true
				}
				continue
			}
		case string:
			if isKey {
				if stack[top].last != "" && x < stack[top].last {
					return false
				}
				stack[top].last = x
			}
		}
	}
}

// engineEnv reports whether env renders as the engine does.
func engineEnv(env map[string]any) bool {
	for k, v := range env {
		switch k {
		case "keep_trailing_newline", "sandbox", "trim_blocks", "lstrip_blocks":
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
		case string:
			if strings.ContainsAny(x, "<&") {
				ok = false
			}
		case json.Number:
			if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return int(n)
			}
			// a float, unless it is whole: the engine reads a whole
			// float64 as an int (its number), where the case's Python
			// float prints 4.0
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil || f == math.Trunc(f) {
				ok = false
			}
			return f
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
