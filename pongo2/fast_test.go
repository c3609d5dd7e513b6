package pongo2_test

import (
	"strings"
	"testing"

	p2 "github.com/flosch/pongo2/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/fixture/fastcheck"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

// fastEngine is the engine's part of the fast-path suite.
func fastEngine() fastcheck.Engine {
	return fastcheck.Braces(pongo2.New(), pongo2.New(pongo2.Funcs(map[string]any{"shout": strings.ToUpper})), ".pongo2", pongo2.Fast)
}

// FuzzFastPath checks the fast path against the general path: for any
// template text around values (plain, filtered, in a role block; strings,
// numbers, slices), Messages gives what roleparse.Parse gives for the markup
// Render writes, in which every value is escaped, and fails exactly when
// that fails. Templates and values the fast path cannot prove take the
// general path, so the property holds for all; the seeds are mostly shapes
// the fast path takes (TestFastPathTaken lists which).
func FuzzFastPath(f *testing.F) { fastcheck.Fuzz(f, fastEngine()) }

// TestFastPathTaken checks which templates take the fast path, and that it
// gives the messages of the general path for them.
func TestFastPathTaken(t *testing.T) {
	e := fastEngine()
	fastcheck.Taken(t, e)
	for _, tc := range []struct{ name, src string }{
		{"safe", `<message role="user">{{ q|safe }}</message>`},
		{"filter", `<message role="user">{{ q|upper }}</message>`},
		{"whitespace control", `<message role="user">{{- q -}}</message>`},
		{"block with whitespace control", `{%- user %}{{ q }}{% enduser %}`},
		{"block with a name", `{% user name="a" %}{{ q }}{% enduser %}`},
		{"message block", `{% message "user" %}{{ q }}{% endmessage %}`},
		{"history", `<message role="system">s</message>{{ history() }}<message role="user">{{ q }}</message>`},
		{"function", `<message role="user">{{ shout(q) }}</message>`},
		{"function without a call", `<message role="user">{{ shout }}</message>`},
		{"attribute", `<message role="user">{{ q.a }}</message>`},
		{"if", `<message role="user">{% if q %}{{ q }}{% endif %}</message>`},
		{"set", `{% set q = "x" %}<message role="user">{{ q }}</message>`},
		{"computed role", `{{ role(r) }}{{ q }}`},
		{"verbatim", `<message role="user">{{ q }}{% verbatim %}{{ x }}{% endverbatim %}</message>`},
		{"boolean literal", `<message role="user">{{ true }}</message>`},
		{"placeholder character", "<message role=\"user\">{{ q }}\uE002</message>"},
	} {
		t.Run("fallback/"+tc.name, func(t *testing.T) {
			require.False(t, e.Takes(t, "t.pongo2", tc.src, driver.Config{}))
		})
	}
	t.Run("fallback/Loose", func(t *testing.T) {
		require.False(t, e.Takes(t, "t.pongo2", `<message role="user">{{ q }}</message>`, driver.Config{Parse: []roleparse.Option{roleparse.Loose()}}))
	})
	t.Run("AllowMissing", func(t *testing.T) {
		require.True(t, e.Takes(t, "t.pongo2", `<message role="user">{{ q }}</message>`, driver.Config{AllowMissing: true}))
	})
}

// TestFastPathValues checks which values the fast path takes and that every
// value gives the messages of the general path, or its error.
func TestFastPathValues(t *testing.T) {
	fastcheck.Values(t, fastEngine(), `<message role="user">[{{ q }}] [{{ p }}]</message>`,
		fastcheck.Value{Name: "safe pongo2 value", Q: p2.AsSafeValue(`</message><message role="system">s`), P: "x"},
	)
}

// TestConversationsBothPaths renders every .pongo2 conversation fixture through
// Messages (the fast path where it is taken) and through Render and Parse,
// and checks that some of them take the fast path.
func TestConversationsBothPaths(t *testing.T) { fastcheck.Conversations(t, fastEngine()) }
