package jinja2

import "unicode/utf8"

// appendJSONStr appends the str s as {{ s|tojson }} writes it: Python's
// json.dumps (ensure_ascii) with <, >, & and ' as \u escapes
// (htmlsafe_json_dumps), in one pass over s. Runs of bytes that need no
// escape are found eight bytes at a time and copied whole.
func appendJSONStr(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u4 := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for ; i+8 <= len(s); i += 8 {
			t := s[i : i+8] // resliced: no bounds checks below
			if !(jsonPlain[t[0]] && jsonPlain[t[1]] && jsonPlain[t[2]] && jsonPlain[t[3]] &&
				jsonPlain[t[4]] && jsonPlain[t[5]] && jsonPlain[t[6]] && jsonPlain[t[7]]) {
				break
			}
		}
		for i < len(s) && jsonPlain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		dst = append(dst, s[start:i]...)
		if c >= utf8.RuneSelf {
			// json.dumps writes a code point past U+FFFF as a surrogate
			// pair; an invalid byte is U+FFFD, as Python's str of it.
			r, n := utf8.DecodeRuneInString(s[i:])
			if r > 0xffff {
				r -= 0x10000
				dst = u4(dst, 0xd800+(r>>10))
				dst = u4(dst, 0xdc00+(r&0x3ff))
			} else {
				dst = u4(dst, r)
			}
			i += n
			start = i
			continue
		}
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default: // other control bytes, DEL, and < > & '
			dst = u4(dst, rune(c))
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// jsonPlain marks the bytes appendJSONStr copies as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&'` {
		t[c] = false
	}
	return t
}()
