package handlebars_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/roleparse"
)

// TestLiteralRoleWithBraces: a literal role or attribute that holds {{
// (a mistake, or a role the caller allows) renders as written. The marker
// and block forms with literal arguments are written into the template as
// message tags before raymond parses it, and there a {{ opened a
// mustache: the template failed to compile with "raymond rejected a
// template that rolemark's parser accepted", with no position.
func TestLiteralRoleWithBraces(t *testing.T) {
	set := engine.NewSet(handlebars.New()).Option(engine.ParseOptions(roleparse.AnyRole()))
	for _, tc := range []struct{ name, src string }{
		{"marker", `{{role "us{{er"}}hi`},
		{"message block", `{{#message role="us{{er"}}hi{{/message}}`},
		{"name of a role block", `{{#user name="a{{b"}}hi{{/user}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			require.Equal(t, "hi", msgs[0].Text())
			if tc.name == "name of a role block" {
				require.Equal(t, chat.RoleUser, msgs[0].Role)
				require.Equal(t, "a{{b", msgs[0].Name)
			} else {
				require.Equal(t, chat.Role("us{{er"), msgs[0].Role)
			}
		})
	}
}
