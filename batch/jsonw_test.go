package batch

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// TestAppendMatchesEncodingJSON checks the JSON writer against
// encoding/json (HTML escaping off) and chat.Message's MarshalJSON.
func TestAppendMatchesEncodingJSON(t *testing.T) {
	seeds := []string{"", "plain", "<b>&</b>", "quote \" back \\ slash", "\n\r\t\x00\x01\x1f\x7f",
		"Grüß 😀 中文", "\u2028\u2029", "bad \xff utf8 \xc3", "long " + string(bytes.Repeat([]byte("x"), 5000))}
	rnd := rand.New(rand.NewSource(1))
	alphabet := []rune{'a', ' ', '"', '\\', '<', '&', '\n', 0, 0x1f, 'é', '😀', '\u2028', 0xFFFD}
	for range 500 {
		var r []rune
		for range rnd.Intn(20) {
			r = append(r, alphabet[rnd.Intn(len(alphabet))])
		}
		s := string(r)
		if rnd.Intn(5) == 0 {
			s += "\xff"
		}
		seeds = append(seeds, s)
	}
	for _, s := range seeds {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		assert.Equal(t, bytes.TrimSuffix(want.Bytes(), []byte("\n")), appendString(nil, s), "%q", s)

		msgs := []chat.Message{chat.Text(chat.RoleSystem, s), chat.Text(chat.RoleUser, s), {Role: chat.RoleAssistant},
			{Role: chat.RoleUser, Name: "n", Content: []chat.Part{chat.TextPart(s)}},
			{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart(s), {Type: chat.PartImage, URL: "https://x/y.png"}}}}
		var wantMsgs bytes.Buffer
		enc = json.NewEncoder(&wantMsgs)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(msgs))
		got, err := appendMessages(nil, msgs)
		require.NoError(t, err)
		assert.Equal(t, string(bytes.TrimSuffix(wantMsgs.Bytes(), []byte("\n"))), string(got), "%q", s)
	}
}
