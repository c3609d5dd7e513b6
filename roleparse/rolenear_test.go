package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/roleparse"
)

// TestUnknownRoleNear: an unknown role one edit from a known one (or from
// one the caller allows) names it; another does not.
func TestUnknownRoleNear(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		opts     []roleparse.Option
	}{
		{`<message role="sytem">x</message>`, `unknown role "sytem" (did you mean "system"?); expected`, nil},
		{`<message role="Asistant">x</message>`, `unknown role "Asistant" (did you mean "assistant"?); expected`, nil},
		{`<message role="usr">x</message>`, `unknown role "usr" (did you mean "user"?); expected`, nil},
		{`<message role="critc">x</message>`, `unknown role "critc" (did you mean "critic"?); expected`, []roleparse.Option{roleparse.Roles("critic")}},
		{`<message role="wizard">x</message>`, `unknown role "wizard"; expected`, nil},
	} {
		_, err := roleparse.Parse(tc.in, tc.opts...)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}
