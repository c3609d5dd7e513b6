package pyjson

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzAppendHTMLSafeString compares AppendHTMLSafeString (on amd64 the
// assembly block escaper with the plain loop around it) with the plain
// loop alone, after a prefix and with the spare capacity the input picks,
// so that the escaper stops for room at every place. The plain loop is
// checked against Python's json.dumps by TestPythonOracle and
// TestAppendStringReference.
func FuzzAppendHTMLSafeString(f *testing.F) {
	lines := strings.Repeat("line 00001: collected test_refund_1 PASSED\n", 8)
	for _, s := range []string{
		"",
		"plain text of more than thirty-two bytes, nothing to escape",
		lines,
		`<a href='x'>"q" & \back\slash</a> <a href='x'>"q" & \back\slash</a>`,
		"\x00\x01\x1f\x7f\b\f\n\r\t control bytes at the start of a long string\x7f",
		"héllo wörld ünïcode, ünïcode, ünïcode, ünïcode, 日本語のテキスト 😀 and more ascii after it",
		"invalid \xff\xfe bytes \xed\xa0\x80 a lone surrogate \xed\xbf\xbf and \xc3 a cut one, long enough",
		strings.Repeat("<", 40),
		strings.Repeat("é", 40),
		strings.Repeat("x", 15) + "\n" + strings.Repeat("y", 16) + "&" + strings.Repeat("z", 17),
	} {
		f.Add(s, uint8(0), uint8(0))
		f.Add(s, uint8(3), uint8(31))
		f.Add(s, uint8(1), uint8(200))
	}
	f.Fuzz(func(t *testing.T, s string, pre, room uint8) {
		dst := make([]byte, int(pre), int(pre)+int(room))
		for i := range dst {
			dst[i] = 'p'
		}
		got := AppendHTMLSafeString(dst, s)
		want := appendString(bytes.Repeat([]byte{'p'}, int(pre)), s, true, &plainHTML)
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendHTMLSafeString(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}
