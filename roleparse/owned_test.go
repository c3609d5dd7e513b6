package roleparse

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/rolemark/rolemark/chat"

	"github.com/stretchr/testify/require"
)

// TestParseOwnedParseChangesNothing checks what makes ParseOwned follow
// unsafe.String's rules: the parse, which reads b through a string, leaves
// b as it was, and every text left to decode is a text part lying exactly
// over its bytes in b.
func TestParseOwnedParseChangesNothing(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		pending int
	}{
		{name: "no reference", in: `<message role="user">plain</message>`, pending: 0},
		{name: "loose text", in: `<message role="user"> a &amp; b </message>`, pending: 1},
		{name: "text part and loose text", in: `<message role="user"><text>&lt;x&gt;</text> &#39;y&#39;</message>`, pending: 2},
		{name: "CDATA is decoded by copying", in: `<message role="user">&amp;<![CDATA[&amp;]]></message>`, pending: 0},
		{name: "more than fit the buffer", in: strings.Repeat(`<message role="user">&amp;</message>`, 9), pending: 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte(tc.in)
			var buf [8]pendingText
			msgs, pending, err := parse(unsafe.String(unsafe.SliceData(b), len(b)), true, &buf, nil)
			require.NoError(t, err)
			require.Equal(t, tc.in, string(b), "the parse changed the markup")
			require.Len(t, pending, tc.pending)
			for _, p := range pending {
				text := msgs[p.msg].Content[p.part].Text
				require.Equal(t, tc.in[p.start:p.end], text)
				require.Equal(t, unsafe.Pointer(&b[p.start]), unsafe.Pointer(unsafe.StringData(text)), "pending text %q does not lie over its bytes", text)
			}
		})
	}
}

// TestPartChunkFillsThirtyTwoKB fails when chat.Part changes size and
// partChunk no longer fills the 32 KB it is meant to.
func TestPartChunkFillsThirtyTwoKB(t *testing.T) {
	require.Equal(t, 32<<10/int(unsafe.Sizeof(chat.Part{})), partChunk)
}
