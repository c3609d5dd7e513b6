package jinja2

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStripTags: Markup.striptags removes comments, then tags, each time
// searching again from the start, so a removal can join the start of a
// new span; an unclosed one stays. The expected values are Python's:
//
//	python3 -c "from markupsafe import Markup; print(repr(Markup(S).striptags()))"
func TestStripTags(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<!-- a -->b<c>d &amp; e", "bd & e"},
		{"<!<!-- x -->-- y -->z", "z"},
		{"a<<b>>c", "a>c"},
		{"<!-->a-->b", "a-->b"},
		{"x<!--->y", "xy"},
		{"a <b\n c>  d\t<e", "a d <e"},
		{"<!-- open", "<!-- open"},
	} {
		assert.Equal(t, tc.want, stripTags(tc.in), "%q", tc.in)
	}
}
