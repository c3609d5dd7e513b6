package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/roleparse"
)

func TestMessageTagAt(t *testing.T) {
	tests := []struct {
		markup string
		i      int
		want   bool
	}{
		{`<message role="user">`, 0, true},
		{`x <MESSAGE role="user">`, 2, true},
		{"<message\trole='user'>", 0, true},
		{"<message>", 0, true},
		{"<message/>", 0, true},
		{"<message", 0, true}, // cut off by the end: a tag not closed, not text
		{"<messages>", 0, false},
		{"</message>", 0, false},
		{"<mesage role=\"user\">", 0, false},
		{"a<message>", 0, false},
		{"<message>", 1, false},
		{"<message>", -1, false},
		{"<message>", 9, false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, roleparse.MessageTagAt(tc.markup, tc.i), "%q at %d", tc.markup, tc.i)
	}
}
