package jinja_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/fixture/fastcheck"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// fastEngine is the engine's part of the fast-path suite.
func fastEngine() fastcheck.Engine {
	return fastcheck.Braces(jinja.New(), jinja.New(jinja.Funcs(map[string]any{"shout": strings.ToUpper})), ".j2", jinja.Fast)
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
	for _, tc := range []struct {
		name, src string
		fast      bool
	}{
		{"whitespace control", `<message role="user">{{- q -}}</message>`, true},
		{"block with whitespace control", `{%- user %}{{ q }}{% enduser %}`, true},
		{"block with a name", `{% user name="a" %}{{ q }}{% enduser %}`, true},
		{"message block", `{% message "user" %}{{ q }}{% endmessage %}`, true},
		{"marker with a name", `{{ role("user", name="a") }}{{ q }}`, true},
		{"raw", `<message role="user">{{ q }}{% raw %}{{ x }}{% endraw %}</message>`, true},
		{"comment", `<message role="user">{# c #}{{ q }}</message>`, true},
		{"safe", `<message role="user">{{ q|safe }}</message>`, false},
		{"filter", `<message role="user">{{ q|upper }}</message>`, false},
		{"block with a computed name", `{% user name=n %}{{ q }}{% enduser %}`, false},
		{"history", `<message role="system">s</message>{{ history() }}<message role="user">{{ q }}</message>`, false},
		{"function", `<message role="user">{{ shout(q) }}</message>`, false},
		{"function without a call", `<message role="user">{{ shout }}</message>`, false},
		{"global", `<message role="user">{{ range }}</message>`, false},
		{"attribute", `<message role="user">{{ q.a }}</message>`, false},
		{"if", `<message role="user">{% if q %}{{ q }}{% endif %}</message>`, false},
		{"set", `{% set q = "x" %}<message role="user">{{ q }}</message>`, false},
		{"computed role", `{{ role(r) }}{{ q }}`, false},
		{"boolean literal", `<message role="user">{{ true }}</message>`, false},
		{"include", `<message role="user">{% include "x" ignore missing %}{{ q }}</message>`, false},
		{"placeholder character", "<message role=\"user\">{{ q }}\uE002</message>", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.fast, e.Takes(t, "t.j2", tc.src, driver.Config{}))
		})
	}
	t.Run("fallback/Loose", func(t *testing.T) {
		require.False(t, e.Takes(t, "t.j2", `<message role="user">{{ q }}</message>`, driver.Config{Parse: []roleparse.Option{roleparse.Loose()}}))
	})
	t.Run("AllowMissing", func(t *testing.T) {
		require.True(t, e.Takes(t, "t.j2", `<message role="user">{{ q }}</message>`, driver.Config{AllowMissing: true}))
	})
}

// TestFastPathValues checks which values the fast path takes and that every
// value gives the messages of the general path, or its error.
func TestFastPathValues(t *testing.T) {
	fastcheck.Values(t, fastEngine(), `<message role="user">[{{ q }}] [{{ p }}]</message>`)
}

// TestConversationsBothPaths renders every .j2 conversation fixture through
// Messages (the fast path where it is taken) and through Render and Parse,
// and checks that some of them take the fast path.
func TestConversationsBothPaths(t *testing.T) { fastcheck.Conversations(t, fastEngine()) }
