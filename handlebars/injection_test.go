package handlebars_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/fixture"
)

// hostile returns the shared hostile values of testdata/hostile.json plus
// invalid UTF-8, which JSON cannot carry.
func hostile(t testing.TB) []string { return fixture.Hostile(t) }

func trim(s string) string { return strings.Trim(s, " \t\r\n") }

func sys(s string) chat.Message { return chat.Text(chat.RoleSystem, s) }

// position is one place a template can put a value, with the messages it
// must yield for the value x.
type position struct {
	name string
	src  string
	want func(x string) []chat.Message
	hist bool // pass history holding x
}

func withName(m chat.Message, name string) chat.Message { m.Name = name; return m }

func positions() []position {
	text := func(role chat.Role) func(string) []chat.Message {
		return func(x string) []chat.Message {
			return []chat.Message{sys("S"), chat.Text(role, trim(x)), chat.Text(chat.RoleAssistant, "A")}
		}
	}
	named := func(role chat.Role) func(string) []chat.Message {
		return func(x string) []chat.Message {
			return []chat.Message{sys("S"), withName(chat.Text(role, "hi"), x), chat.Text(chat.RoleAssistant, "A")}
		}
	}
	image := func(x string) []chat.Message {
		return []chat.Message{sys("S"), {Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"), {Type: chat.PartImage, URL: x}}}, chat.Text(chat.RoleAssistant, "A")}
	}
	tool := func(x string) []chat.Message {
		m := chat.Text(chat.RoleTool, "ok")
		m.ToolCallID = x
		return []chat.Message{sys("S"), m, chat.Text(chat.RoleAssistant, "A")}
	}
	end := `<message role="assistant">A</message>`
	return []position{
		{name: "literal user text", src: `<message role="system">S</message><message role="user">{{x}}</message>` + end, want: text(chat.RoleUser)},
		{name: "literal system text", src: `<message role="system">S</message><message role="system">{{x}}</message>` + end, want: text(chat.RoleSystem)},
		{name: "literal assistant text", src: `<message role="system">S</message><message role="assistant">{{x}}</message>` + end, want: text(chat.RoleAssistant)},
		{name: "marker user text", src: `{{role "system"}}S{{role "user"}}{{x}}{{role "assistant"}}A`, want: text(chat.RoleUser)},
		{name: "marker assistant text", src: `{{role "system"}}S{{role "assistant"}}{{x}}{{role "assistant"}}A`, want: text(chat.RoleAssistant)},
		{name: "block user text", src: `{{#system}}S{{/system}}{{#user}}{{x}}{{/user}}{{#assistant}}A{{/assistant}}`, want: text(chat.RoleUser)},
		{name: "block system text", src: `{{#system}}S{{/system}}{{#system}}{{x}}{{/system}}{{#assistant}}A{{/assistant}}`, want: text(chat.RoleSystem)},
		{name: "block assistant text", src: `{{#system}}S{{/system}}{{#assistant}}{{x}}{{/assistant}}{{#assistant}}A{{/assistant}}`, want: text(chat.RoleAssistant)},
		{name: "message block text", src: `{{#message role="system"}}S{{/message}}{{#message role="user"}}{{x}}{{/message}}` + end, want: text(chat.RoleUser)},
		{name: "text in a block inside if", src: `{{#system}}S{{/system}}{{#if x}}{{#user}}{{x}}{{/user}}{{/if}}` + end, want: func(x string) []chat.Message {
			if x == "" { // #if is false
				return []chat.Message{sys("S"), chat.Text(chat.RoleAssistant, "A")}
			}
			return text(chat.RoleUser)(x)
		}},
		{name: "each item", src: `{{#system}}S{{/system}}{{#user}}{{#each xs}}{{this}}{{/each}}{{/user}}` + end, want: text(chat.RoleUser)},
		{name: "with", src: `{{#system}}S{{/system}}{{#user}}{{#with o}}{{v}}{{/with}}{{/user}}` + end, want: text(chat.RoleUser)},
		{name: "user variable shadowed by the helper", src: `{{#system}}S{{/system}}{{#user}}{{user}}{{/user}}` + end, want: text(chat.RoleUser)},
		{name: "text part", src: `<message role="system">S</message><message role="user"><text>{{x}}</text></message>` + end, want: func(x string) []chat.Message {
			return []chat.Message{sys("S"), {Role: chat.RoleUser, Content: []chat.Part{chat.TextPart(trim(x))}}, chat.Text(chat.RoleAssistant, "A")}
		}},
		{name: "literal name attribute", src: `<message role="system">S</message><message role="user" name="{{x}}">hi</message>` + end, want: named(chat.RoleUser)},
		{name: "literal name attribute single-quoted", src: `<message role="system">S</message><message role="user" name='{{x}}'>hi</message>` + end, want: named(chat.RoleUser)},
		{name: "marker name", src: `{{role "system"}}S{{role "user" name=x}}hi{{role "assistant"}}A`, want: named(chat.RoleUser)},
		{name: "block name", src: `{{#system}}S{{/system}}{{#user name=x}}hi{{/user}}` + end, want: named(chat.RoleUser)},
		{name: "assistant block name", src: `{{#system}}S{{/system}}{{#assistant name=x}}hi{{/assistant}}` + end, want: named(chat.RoleAssistant)},
		{name: "message block name", src: `{{#system}}S{{/system}}{{#message role="user" name=x}}hi{{/message}}` + end, want: named(chat.RoleUser)},
		{name: "marker tool_call_id", src: `{{role "system"}}S{{role "tool" tool_call_id=x}}ok{{role "assistant"}}A`, want: tool},
		{name: "literal tool_call_id", src: `<message role="system">S</message><message role="tool" tool_call_id="{{x}}">ok</message>` + end, want: tool},
		{name: "media url", src: `{{#system}}S{{/system}}{{#user}}<text>look</text>{{media url=x}}{{/user}}` + end, want: image},
		{name: "media url in a marker message", src: `{{role "system"}}S{{role "user"}}<text>look</text>{{media url=x}}{{role "assistant"}}A`, want: image},
		{name: "literal image url", src: `<message role="system">S</message><message role="user"><text>look</text><image url="{{x}}"/></message>` + end, want: image},
		{name: "history", hist: true, src: `{{#system}}S{{/system}}{{history}}{{#user}}Q{{/user}}`, want: func(x string) []chat.Message {
			return []chat.Message{sys("S"), chat.Text(chat.RoleUser, x), withName(chat.Text(chat.RoleAssistant, x), x), chat.Text(chat.RoleUser, "Q")}
		}},
		{name: "history unplaced", hist: true, src: `{{#system}}S{{/system}}{{#user}}Q{{/user}}`, want: func(x string) []chat.Message {
			return []chat.Message{sys("S"), chat.Text(chat.RoleUser, x), withName(chat.Text(chat.RoleAssistant, x), x), chat.Text(chat.RoleUser, "Q")}
		}},
	}
}

// TestInjection renders every hostile value in every position and checks
// that the messages are exactly the intended ones, with the value intact.
func TestInjection(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	vals := hostile(t)
	require.GreaterOrEqual(t, len(vals), 60)
	for _, p := range positions() {
		tpl, err := set.Parse("handlebars", p.name+".hbs", p.src)
		require.NoError(t, err, p.src)
		t.Run(p.name, func(t *testing.T) {
			for i, x := range vals {
				vars := map[string]any{"x": x, "user": x, "xs": []any{x}, "o": map[string]any{"v": x}}
				var hist []chat.Message
				if p.hist {
					hist = []chat.Message{chat.Text(chat.RoleUser, x), withName(chat.Text(chat.RoleAssistant, x), x)}
				}
				msgs, err := tpl.Messages(context.Background(), vars, engine.History(hist))
				if !assertNoErr(t, err, i, x) {
					continue
				}
				if want := p.want(x); !equalMsgs(want, msgs) {
					t.Errorf("value %d %s:\nwant %s\ngot  %s", i, short(x), show(want), show(msgs))
				}
			}
		})
	}
}

func assertNoErr(t *testing.T, err error, i int, x string) bool {
	t.Helper()
	if err != nil {
		t.Errorf("value %d %s: %v", i, short(x), err)
		return false
	}
	return true
}

func equalMsgs(a, b []chat.Message) bool { return show(a) == show(b) }

func show(msgs []chat.Message) string { return fmt.Sprintf("%#v", msgs) }

func short(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q… (%d bytes)", s[:60], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// stringer, errValue and named are values of other Go types whose text is
// hostile: every value a template prints is escaped whatever its type.
type stringer struct{ s string }

func (s stringer) String() string { return s.s }

type named string

type ptrStringer struct{ s string }

func (s *ptrStringer) String() string { return s.s }

// TestInjectionTypes prints hostile text held in values of other types.
func TestInjectionTypes(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	tpl, err := set.Parse("handlebars", "types.hbs", `{{#system}}S{{/system}}{{#user}}{{x}}{{/user}}<message role="assistant">A</message>`)
	require.NoError(t, err)
	for i, x := range hostile(t) {
		for _, v := range []any{stringer{x}, &stringer{x}, errors.New(x), named(x), []string{x}, []any{x}, &ptrStringer{x}} {
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": v})
			if !assertNoErr(t, err, i, x) {
				continue
			}
			text := x
			switch v.(type) {
			case error, *ptrStringer:
				// raymond dereferences the pointer before printing, so a
				// String or Error method with a pointer receiver is not
				// seen: the struct prints as {fields}, still escaped.
				text = "{" + x + "}"
			}
			want := []chat.Message{sys("S"), chat.Text(chat.RoleUser, trim(text)), chat.Text(chat.RoleAssistant, "A")}
			if !equalMsgs(want, msgs) {
				t.Errorf("value %d %s as %T:\nwant %s\ngot  %s", i, short(x), v, show(want), show(msgs))
			}
		}
	}
}
