package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzAppendStringOf guards appendStringOf's unsafe.String: whatever b
// holds before and whatever the writer appends, the result is b followed
// by the appended text written as encoding/json writes a string (HTML
// escaping off), b's own bytes are kept, and a writer's error comes back.
func FuzzAppendStringOf(f *testing.F) {
	f.Add([]byte(`{"prompt":`), []byte("plain"), 0)
	f.Add([]byte{}, []byte("quote \" back \\ slash \n\t\x00 <b>&</b>"), 8)
	f.Add([]byte("x"), []byte("Grüß 😀 \u2028 bad \xff utf8 \xc3"), 1)
	f.Add([]byte(`{"prompt":`), bytes.Repeat([]byte("\"\n"), 3000), 64)
	f.Fuzz(func(t *testing.T, prefix, text []byte, room int) {
		// room is spare capacity after the prefix: the escaped form is
		// appended in place, or to a new array when it does not fit.
		b := append(make([]byte, 0, len(prefix)+max(room, 0)%4096), prefix...)
		got, err := appendStringOf(b, func(b []byte) ([]byte, error) { return append(b, text...), nil })
		require.NoError(t, err)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(string(text)))
		require.Equal(t, string(prefix)+string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))), string(got))

		boom := errors.New("boom")
		_, err = appendStringOf(b, func(b []byte) ([]byte, error) { return append(b, text...), boom })
		require.ErrorIs(t, err, boom)
	})
}
