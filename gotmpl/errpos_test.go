package gotmpl_test

import (
	"fmt"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/gotmpl"
)

// TestPlaceParseErrorLateInALargeTemplate: a lexer's problem on a long
// line far into a large template is placed by parsing the line's
// prefixes, not the template's from its top, whose cost was the line's
// length times its offset (8 s for rolemark check of a 350 KB template);
// one that only its context makes (a string of an action opened on the
// line before) is still placed.
func TestPlaceParseErrorLateInALargeTemplate(t *testing.T) {
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "line %d {{ .x }} text text text text text\n", i)
	}
	head := b.String()
	for _, tc := range []struct {
		name, head, tail string
		line, col        int
	}{
		{"on its line", head, strings.Repeat("x", 900) + ` {{ .y "abc }}` + "\n", 4001, 908},
		{"in an action from the line before", head, "{{ .y\n" + `"abc }}` + "\n", 4002, 1},
		// the first line is searched whatever its length (up to maxErrLine)
		{"on a long first line", "", strings.Repeat("x", 3500) + ` {{ .y "abc }}` + "\n", 1, 3508},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.head + tc.tail
			read := 0
			parse := func(s string) error {
				read += len(s)
				_, err := template.New("t").Parse(s)
				return err
			}
			_, err := template.New("t").Parse(src)
			msg := err.Error()[strings.LastIndex(err.Error(), ": ")+2:]
			l, col, _, ok := gotmpl.PlaceParseError(msg, tc.line, src, parse)
			assert.True(t, ok, "%v", err)
			assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{l, col}, "%v", err)
			assert.Less(t, read, 8<<20+len(src), "bytes parsed")
		})
	}
}
