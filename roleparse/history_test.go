package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// TestEmptyHistoryNeedsTags checks that only real <chat_history> tags make
// an empty history: text that merely spells the tag names without '<' is
// text (it panicked, and the second was taken for an empty history).
func TestEmptyHistoryNeedsTags(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"start tag without <", ">ChAt_historY x"},
		{"end tag without <", "<chat_history>x/chat_history>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roleparse.Parse(tc.in)
			require.NoError(t, err)
			require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tc.in)}, got)
		})
	}
}
