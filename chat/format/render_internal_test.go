package format

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/chat"
)

// TestWriteTurnIsSubstRole checks that writing an Other turn's text with
// the role's name put in gives what substRole gives, for texts and names
// whose braces could make or hide a placeholder.
func TestWriteTurnIsSubstRole(t *testing.T) {
	texts := []string{"<|im_start|>{role}\n", "GPT4 Correct {Role}: ", "{{role}}", "{{role}Role}", "a{role}b{role}c",
		"{rol", "{role", "x{", "{Role}{role}", "{role}}", "{role}le}", "plain", ""}
	roles := []chat.Role{"user", "Role", "", "x{role}y", "R}", "{Role", "{Ro", "ünï tool"}
	for _, s := range texts {
		for _, role := range roles {
			var r renderer
			r.writeTurn(s, role, true)
			assert.Equal(t, substRole(s, role), string(r.b.b), "%q with %q", s, role)
			r = renderer{}
			r.writeTurn(s, role, false)
			assert.Equal(t, s, string(r.b.b), "%q not Other's", s)
		}
	}
}
