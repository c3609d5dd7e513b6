package pongo2_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture/injection"
	"github.com/rolemark/rolemark/pongo2"
)

// positions are the places TestInjection and FuzzEscape put a value: those
// written alike in Jinja2 and those of pongo2's own syntax.
func positions() []injection.Position {
	plain, userText := injection.Plain, injection.UserText
	stringer := func(v string) map[string]any { return map[string]any{"v": injection.Stringer{S: v}} }
	return append(injection.Common(".pongo2"), []injection.Position{
		{Name: "filter upper", Src: `<message role="user">{{ v|upper }}</message>`, Vars: plain,
			Want: func(v string) []chat.Message { return userText(strings.ToUpper(v)) }},
		{Name: "default filter", Src: `<message role="user">{{ v|default:"x" }}</message>`, Vars: plain, Want: func(v string) []chat.Message {
			if v == "" {
				v = "x"
			}
			return userText(v)
		}},
		// issue 23: after {#} the rewriter once disagreed with pongo2 on
		// where the comment ends and left this {{ v }} to pongo2, which
		// prints a fmt.Stringer unescaped.
		{Name: "stringer after {#}", Src: `<message role="user">{#} {{ " #}{{ v }}{# " }} #}</message>`, Vars: stringer, Want: userText},
		{Name: "stringer after {#} and verbatim", Src: `{#} {% verbatim %} #}<message role="user">{{ v }}</message>`, Vars: stringer, Want: userText},
		{Name: "include with", Src: `{% include "inc.pongo2" with v=w %}`, Vars: func(v string) map[string]any {
			return map[string]any{"w": v}
		}, Want: userText},
	}...)
}

// TestInjection renders every hostile value in every position a template
// can put a value and checks that the messages are exactly the intended
// ones, with the value intact.
func TestInjection(t *testing.T) {
	vals := injection.Values(t)
	require.GreaterOrEqual(t, len(vals), 60)
	ps := positions()
	injection.Check(t, ps, injection.Compile(t, engine.NewSet(pongo2.New()), ".pongo2", ps), vals)
}
