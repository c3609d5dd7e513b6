package chattemplate_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

type govarName string

type govarInner struct {
	Text govarName
}

type govarNode struct {
	Raw    json.RawMessage
	Name   string
	Hidden string `json:"-"`
	secret string
	Next   *govarNode
	Any    any
	Inner  govarInner
	Tags   map[string][]string
	Arr    [2]string
}

// A template variable of any Go type is data: the guard reads every
// string a template can read of it (step 1), and its neutral copy (step
// 2) replaces the marks in each, so neither a whole token nor the end of
// one that the template's own text starts can come from it. Before, the
// guard read only string, map[string]any, []any and []string, and let
// every other type through as it was.
func TestSpecialTokensInGoTypedVars(t *testing.T) {
	const tok = "<|im_end|>"
	cyclic := &govarNode{Name: "a"}
	cyclic.Next = cyclic
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		src  string
		v    any
		// refused: the rendering is refused; else it renders want.
		refused bool
		want    string
	}{
		{"map[string]string", "{{ x.a }}", map[string]string{"a": tok}, true, ""},
		{"named string", "{{ x }}", govarName(tok), true, ""},
		{"struct field", "{{ x.Name }}", govarNode{Name: tok}, true, ""},
		{"pointer to struct", "{{ x.Inner.Text }}", &govarNode{Inner: govarInner{Text: tok}}, true, ""},
		{"interface in struct", "{{ x.Any[0] }}", govarNode{Any: []string{tok}}, true, ""},
		{"map of slices", "{{ x.Tags.k[1] }}", govarNode{Tags: map[string][]string{"k": {"", tok}}}, true, ""},
		{"array", "{{ x.Arr[1] }}", govarNode{Arr: [2]string{"", tok}}, true, ""},
		{"map key", "{{ x|list }}", map[govarName]int{tok: 1}, true, ""},
		{"slice of maps", "{{ x[0].a }}", []map[string]string{{"a": tok}}, true, ""},
		{"cycle", "{{ x.Next.Next.Name }}", cyclic, false, "a"},
		{"deep map[string]any", "{{ x }}", deep(80, tok), true, ""},
		// Fields a template cannot read are not data it prints.
		{"unexported and json:\"-\"", "{{ x.Name }}", govarNode{Name: "n", Hidden: tok, secret: tok}, false, "n"},
		// The template writes the start of the token, a field the rest:
		// only the neutral copy (step 2) can tell.
		{"join with a struct field", `{{ "<|im" ~ x.Name }}`, govarNode{Name: "_end|>"}, true, ""},
		{"join with a named string", `{{ "<|im" ~ x }}`, govarName("_end|>"), true, ""},
		{"join with a map[string]string", `{{ "<|im" ~ x.a }}`, map[string]string{"a": "_end|>"}, true, ""},
		{"join, cyclic pointer", `{{ "<|im" ~ x.Next.Name }}`, func() *govarNode {
			n := &govarNode{Name: "_end|>"}
			n.Next = n
			return n
		}(), true, ""},
		{"no join with a struct field", `{{ "<|im" ~ x.Name }}`, govarNode{Name: "_start|"}, false, "<|im_start|"},
		// A json.RawMessage is what its JSON text holds, or the text when
		// it is not JSON (jinja2.FromGo): before, the guard took it for
		// bytes and read none of it.
		{"json.RawMessage", "{{ x }}", json.RawMessage(`"<|im_end|>"`), true, ""},
		{"json.RawMessage escaped", "{{ x.a }}", json.RawMessage(`{"a": "\u003c|im_end|\u003e"}`), true, ""},
		{"json.RawMessage not JSON", "{{ x }}", json.RawMessage(`<|im_end|>`), true, ""},
		{"json.RawMessage in a map", "{{ x.a }}", map[string]any{"a": json.RawMessage(`"<|im_end|>"`)}, true, ""},
		{"json.RawMessage field", "{{ x.Raw }}", govarNode{Raw: json.RawMessage(`"<|im_end|>"`)}, true, ""},
		{"pointer to json.RawMessage", "{{ x }}", func() *json.RawMessage { r := json.RawMessage(`"<|im_end|>"`); return &r }(), true, ""},
		{"join with a json.RawMessage", `{{ "<|im" ~ x }}`, json.RawMessage(`"_end|>"`), true, ""},
		{"join with a json.RawMessage not JSON", `{{ "<|im" ~ x }}`, json.RawMessage(`_end|>`), true, ""},
		{"no join with a json.RawMessage", `{{ "<|im" ~ x }}`, json.RawMessage(`"_start|"`), false, "<|im_start|"},
		{"json.RawMessage, nil", "{{ x is none }}", json.RawMessage(nil), false, "True"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.SpecialTokens(tok))
			require.NoError(t, err)
			out, err := tpl.Render(ctx, []chat.Message{chat.Text(chat.RoleUser, "hi")}, format.Vars(map[string]any{"x": tc.v}))
			if tc.refused {
				var se *format.SpecialTokenError
				require.ErrorAs(t, err, &se, "rendered %q", out)
				assert.Equal(t, tok, se.Token)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}

// deep returns a map[string]any n levels deep holding s at the bottom,
// deeper than the guard reads the common shapes directly.
func deep(n int, s string) any {
	var v any = s
	for range n {
		v = map[string]any{"k": v}
	}
	return v
}
