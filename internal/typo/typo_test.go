package typo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"message", "message", false},
		{"mesage", "message", true},   // deletion
		{"messsage", "message", true}, // insertion
		{"mestage", "message", true},  // substitution
		{"mesasge", "message", true},  // swap
		{"json", "jsno", true},        // swap at the end
		{"jsonl", "json", true},       // one more at the end
		{"", "a", true},
		{"", "", false},
		{"mesge", "message", false},   // two deletions
		{"msesgae", "message", false}, // two swaps
		{"abc", "cba", false},
		{"text", "json", false},
	} {
		assert.Equal(t, tc.want, OneEdit(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, OneEdit(tc.b, tc.a), "%q %q", tc.b, tc.a)
	}
}
