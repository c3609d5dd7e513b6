package gotmpl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/internal/fixture"
)

func trimmed(s string) string { return strings.Trim(s, " \t\r\n") }

// text is a text-only message, or an empty one when s trims to nothing.
func text(role chat.Role, s string) chat.Message { return chat.Text(role, trimmed(s)) }

// TestInjection inserts every hostile value in every position a
// text/template prompt can put a value and checks that the messages are
// exactly the intended ones, with the value intact.
func TestInjection(t *testing.T) {
	sys := chat.Text(chat.RoleSystem, "S")
	positions := []struct {
		name, src string
		want      func(x string) []chat.Message
	}{
		{"literal text", `<message role="system">S</message><message role="user">{{.x}}</message>`,
			func(x string) []chat.Message { return []chat.Message{sys, text(chat.RoleUser, x)} }},
		{"literal text with surroundings", `<message role="user">a {{.x}} b</message>`,
			func(x string) []chat.Message { return []chat.Message{chat.Text(chat.RoleUser, "a "+x+" b")} }},
		{"marker", `{{role "system"}}S{{role "user"}}{{.x}}`,
			func(x string) []chat.Message { return []chat.Message{sys, text(chat.RoleUser, x)} }},
		{"block", `{{message "system" "S"}}{{message "user" .x}}`,
			func(x string) []chat.Message { return []chat.Message{sys, text(chat.RoleUser, x)} }},
		{"text part", `<message role="user"><text>{{.x}}</text><image url="u"/></message>`,
			func(x string) []chat.Message {
				return []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart(trimmed(x)), {Type: chat.PartImage, URL: "u"}}}}
			}},
		{"literal name attribute", `<message role="user" name="{{.x}}">hi</message>`,
			func(x string) []chat.Message {
				return []chat.Message{{Role: chat.RoleUser, Name: x, Content: []chat.Part{chat.TextPart("hi")}}}
			}},
		{"attr name", `{{role "user" (attr "name" .x)}}hi`,
			func(x string) []chat.Message {
				return []chat.Message{{Role: chat.RoleUser, Name: x, Content: []chat.Part{chat.TextPart("hi")}}}
			}},
		{"tool_call_id", `{{message "tool" "r" (attr "tool_call_id" .x)}}`,
			func(x string) []chat.Message {
				return []chat.Message{{Role: chat.RoleTool, ToolCallID: x, Content: []chat.Part{chat.TextPart("r")}}}
			}},
		{"media url", `{{role "user"}}look{{media .x "image/png"}}`,
			func(x string) []chat.Message {
				return []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"), {Type: chat.PartImage, URL: x, MediaType: "image/png"}}}}
			}},
		{"inside range and if", `{{role "user"}}{{range .l}}{{if .}}{{.}}{{end}}{{end}}`,
			func(x string) []chat.Message { return []chat.Message{text(chat.RoleUser, x)} }},
	}
	set := engine.NewSet(gotmpl.New())
	values := fixture.Hostile(t)
	require.GreaterOrEqual(t, len(values), 60)
	for _, p := range positions {
		tpl, err := set.Parse("gotmpl", p.name, p.src)
		require.NoError(t, err, p.name)
		t.Run(p.name, func(t *testing.T) {
			for _, x := range values {
				if p.name == "media url" && trimmed(x) == "" {
					continue // a media part needs a source
				}
				msgs, err := tpl.Messages(context.Background(), map[string]any{"x": x, "l": []string{x}})
				require.NoError(t, err, "x=%q", x)
				assert.Equal(t, p.want(x), msgs, "x=%q", x)
			}
		})
	}

	t.Run("history", func(t *testing.T) {
		tpl, err := set.Parse("gotmpl", "h", `{{role "system"}}S{{history}}{{role "user"}}q`)
		require.NoError(t, err)
		for _, x := range values {
			h := []chat.Message{{Role: chat.RoleUser, Name: x, Content: []chat.Part{chat.TextPart(x)}}}
			if x == "" {
				h[0].Content = nil
			}
			msgs, err := tpl.Messages(context.Background(), nil, engine.History(h))
			require.NoError(t, err, "x=%q", x)
			assert.Equal(t, []chat.Message{sys, h[0], chat.Text(chat.RoleUser, "q")}, msgs, "x=%q", x)
		}
	})
}
