package openai

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// TestConvertErrorsNameTheItem: a message or tool with no client form is
// named in the error, a message by its 1-based position, a tool by name.
func TestConvertErrorsNameTheItem(t *testing.T) {
	_, err := Messages([]chat.Message{chat.Text(chat.RoleUser, "hi"), {Role: chat.RoleUser, Content: []chat.Part{{Type: "bogus"}}}})
	require.EqualError(t, err, `openai: message 2: json: error calling MarshalJSON for type chat.Message: chat: user message, part 1: unknown part type "bogus"`)
	_, err = Tools([]chat.Tool{{Name: "ok"}, {Name: "get_rate", Parameters: json.RawMessage(`{`)}})
	require.EqualError(t, err, `openai: tool "get_rate": json: error calling MarshalJSON for type chat.Tool: json: error calling MarshalJSON for type json.RawMessage: unexpected end of JSON input`)
}
