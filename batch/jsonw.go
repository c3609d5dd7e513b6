package batch

import (
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/jsonw"
)

// appendMessages appends msgs as a JSON array of OpenAI messages, as
// chat.Message's MarshalJSON writes them.
func appendMessages(b []byte, msgs []chat.Message) ([]byte, error) {
	b = append(b, '[')
	for i := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := msgs[i].MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, j...)
	}
	return append(b, ']'), nil
}

// appendString appends s as a JSON string, as encoding/json writes it with
// HTML escaping off.
func appendString(b []byte, s string) []byte { return jsonw.String(b, s) }
