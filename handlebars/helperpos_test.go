package handlebars_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestHelperErrorPosition: an error a helper raises as it renders (a role
// or url that is empty at render time, a caller's helper that panics with
// an error) named the template only, since raymond does not tell a helper
// where it is. It now names the line and column of the helper's name, in
// a block, a loop or a block's body too; the other engines name theirs.
func TestHelperErrorPosition(t *testing.T) {
	boom := func(s string) string {
		if s == "x" {
			panic(errors.New("boom: x is not allowed"))
		}
		return s
	}
	set := engine.NewSet(handlebars.New(handlebars.Funcs(map[string]any{"boom": boom})))
	vars := map[string]any{"r": "", "u": "", "xs": []any{"user", ""}, "x": "x"}
	tests := []struct{ name, src, want string }{
		{"role", "<message role=\"user\">hi</message>\n  {{role r}}x",
			`role.hbs:2:5: role: the role is empty`},
		{"message block", "{{#user}}a{{/user}}\n{{#message role=r}}b{{/message}}",
			`message.hbs:2:4: message: the role is empty`},
		{"media", "{{#user}}\nsee {{media url=u}}{{/user}}",
			`media.hbs:2:7: media: the url is empty`},
		{"in a loop", "{{#each xs}}\n {{role this}}a{{/each}}",
			`loop.hbs:2:4: role: the role is empty`},
		{"inside a block", "{{#user}}\n {{#if x}}{{boom x}}{{/if}}{{/user}}",
			`block.hbs:2:13: boom: x is not allowed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := map[string]string{"role": "role.hbs", "message block": "message.hbs", "media": "media.hbs", "in a loop": "loop.hbs", "inside a block": "block.hbs"}[tc.name]
			tpl, err := set.Parse("", name, tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), vars)
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.EqualError(t, err, tc.want)
		})
	}
}

// TestCallNamesAreHelpers: the names the walker records calls of are
// rolemark's helpers (helpers(), less the print helper).
func TestCallNamesAreHelpers(t *testing.T) {
	for _, name := range []string{"role", "message", "system", "user", "assistant", "history", "media", "json", "ifEquals", "unlessEquals"} {
		assert.True(t, handlebars.IsHelper(name), name)
	}
	assert.Equal(t, 11, handlebars.HelperCount(), "a new helper is named in walker.call")
}
