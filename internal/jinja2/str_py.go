package jinja2

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python 3.11's str semantics over Go strings: full case mappings,
// whitespace, character classes, and splitting.

// pyIsSpace is str.isspace for one character.
func pyIsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f)
	}
	return unicode.IsSpace(r)
}

func pyAssigned14(r rune) bool { return !unicode.Is(addedInUnicode15, r) }

func pyIsAlpha(r rune) bool {
	if r < utf8.RuneSelf {
		return r|0x20 >= 'a' && r|0x20 <= 'z'
	}
	return unicode.IsLetter(r) && pyAssigned14(r)
}

func pyIsDecimal(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return unicode.Is(unicode.Nd, r) && pyAssigned14(r)
}

func pyIsDigit(r rune) bool { return pyIsDecimal(r) || pyDigitExtra[r] }

func pyIsNumeric(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return (unicode.IsNumber(r) && pyAssigned14(r)) || pyNumericExtra[r]
}

func pyIsAlnum(r rune) bool { return pyIsAlpha(r) || pyIsDecimal(r) || pyIsDigit(r) || pyIsNumeric(r) }

func pyIsLowerCh(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z'
	}
	l := (unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)) && pyAssigned14(r)
	if pyLowerFlip[r] {
		return !l
	}
	return l
}

func pyIsUpperCh(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

func pyIsTitleCh(r rune) bool { return unicode.IsTitle(r) }

// pyIsCased is Unicode's Cased property.
func pyIsCased(r rune) bool { return pyIsLowerCh(r) || pyIsUpperCh(r) || pyIsTitleCh(r) }

// pyIsCaseIgnorable is Unicode's Case_Ignorable property (approximately:
// the categories Mn, Me, Cf, Lm, Sk and the word-break mid letters).
func pyIsCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xAD, 0xB7, 0x2018, 0x2019, 0x2024, 0x2027:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

func appendUpper(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if r >= 'a' && r <= 'z' {
			r -= 32
		}
		return append(b, byte(r))
	}
	if m, ok := pyUpperFull[r]; ok {
		return append(b, m...)
	}
	return utf8.AppendRune(b, unicode.ToUpper(r))
}

func appendLowerCh(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if r >= 'A' && r <= 'Z' {
			r += 32
		}
		return append(b, byte(r))
	}
	if m, ok := pyLowerFull[r]; ok {
		return append(b, m...)
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

func appendTitleCh(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		return appendUpper(b, r)
	}
	if m, ok := pyTitleFull[r]; ok {
		return append(b, m...)
	}
	return utf8.AppendRune(b, unicode.ToTitle(r))
}

func appendFoldCh(b []byte, r rune) []byte {
	if m, ok := pyFoldFull[r]; ok {
		return append(b, m...)
	}
	if r >= 0x13A0 && r <= 0x13F5 {
		// Cherokee's capitals fold to themselves (CaseFolding.txt folds
		// the small letters to them), where lower() makes them small
		return utf8.AppendRune(b, r)
	}
	return appendLowerCh(b, r)
}

// appendLowerAt lowers rs[i], with the final sigma rule.
func appendLowerAt(b []byte, rs []rune, i int) []byte {
	if rs[i] != 0x3A3 {
		return appendLowerCh(b, rs[i])
	}
	final := false
	j := i - 1
	for j >= 0 && pyIsCaseIgnorable(rs[j]) {
		j--
	}
	if j >= 0 && pyIsCased(rs[j]) {
		k := i + 1
		for k < len(rs) && pyIsCaseIgnorable(rs[k]) {
			k++
		}
		final = k == len(rs) || !pyIsCased(rs[k])
	}
	if final {
		return utf8.AppendRune(b, 0x3C2)
	}
	return utf8.AppendRune(b, 0x3C3)
}

func pyUpper(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, pyUpper, pyUpper)
	}
	if isASCII(s) {
		return strings.ToUpper(s)
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = appendUpper(b, r)
	}
	return string(b)
}

func pyLower(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, pyLower, pyLower)
	}
	if isASCII(s) {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	b := make([]byte, 0, len(s))
	for i := range rs {
		b = appendLowerAt(b, rs, i)
	}
	return string(b)
}

func pyCasefold(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, pyCasefold, pyCasefold)
	}
	if isASCII(s) {
		return strings.ToLower(s)
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = appendFoldCh(b, r)
	}
	return string(b)
}

func pySwapcase(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, pySwapcase, pySwapcase)
	}
	rs := []rune(s)
	b := make([]byte, 0, len(s))
	for i, r := range rs {
		switch {
		case pyIsUpperCh(r):
			b = appendLowerAt(b, rs, i)
		case pyIsLowerCh(r):
			b = appendUpper(b, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// pyTitle is str.title.
func pyTitle(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, pyTitle, pyTitle)
	}
	rs := []rune(s)
	b := make([]byte, 0, len(s))
	prevCased := false
	for i, r := range rs {
		if prevCased {
			b = appendLowerAt(b, rs, i)
		} else {
			b = appendTitleCh(b, r)
		}
		prevCased = pyIsCased(r)
	}
	return string(b)
}

// appendStrMethod returns the function that appends what the str method
// name, called without arguments, returns for an ASCII str (false for
// any other str, which the method itself must answer), or nil when name
// is not such a method: the case methods, whose ASCII forms map a byte
// at a time, and lstrip and rstrip, which return a part of the str. For
// a printed chain that writes them without making the str.
func appendStrMethod(name string) func(dst []byte, s string) ([]byte, bool) {
	switch name {
	case "upper":
		return func(dst []byte, s string) ([]byte, bool) {
			if !isASCII(s) {
				return dst, false
			}
			for i := 0; i < len(s); i++ {
				c := s[i]
				if 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				}
				dst = append(dst, c)
			}
			return dst, true
		}
	case "lower":
		return func(dst []byte, s string) ([]byte, bool) {
			if !isASCII(s) {
				return dst, false
			}
			for i := 0; i < len(s); i++ {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				dst = append(dst, c)
			}
			return dst, true
		}
	case "title":
		// a letter after a letter is lowered, any other raised: the
		// ASCII letters are its cased characters
		return func(dst []byte, s string) ([]byte, bool) {
			if !isASCII(s) {
				return dst, false
			}
			prevCased := false
			for i := 0; i < len(s); i++ {
				c := s[i]
				switch {
				case 'a' <= c && c <= 'z':
					if !prevCased {
						c -= 'a' - 'A'
					}
					prevCased = true
				case 'A' <= c && c <= 'Z':
					if prevCased {
						c += 'a' - 'A'
					}
					prevCased = true
				default:
					prevCased = false
				}
				dst = append(dst, c)
			}
			return dst, true
		}
	case "capitalize":
		return func(dst []byte, s string) ([]byte, bool) {
			if !isASCII(s) {
				return dst, false
			}
			for i := 0; i < len(s); i++ {
				c := s[i]
				if i == 0 && 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				} else if i > 0 && 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				dst = append(dst, c)
			}
			return dst, true
		}
	case "lstrip":
		return func(dst []byte, s string) ([]byte, bool) { return append(dst, pyStrip(s, nil, true, false)...), true }
	case "rstrip":
		return func(dst []byte, s string) ([]byte, bool) { return append(dst, pyStrip(s, nil, false, true)...), true }
	}
	return nil
}

// pyCapitalize is str.capitalize (title case for the first character, as
// Python 3.8 on).
func pyCapitalize(s string) string {
	if isASCII(s) {
		return asciiCapitalize(s)
	}
	return runesCapitalize(s)
}

// runesCapitalize is str.capitalize of any s, rune by rune.
func runesCapitalize(s string) string {
	if hasSurrogate(s) {
		return bySegments(s, runesCapitalize, pyLower)
	}
	rs := []rune(s)
	b := make([]byte, 0, len(s))
	for i, r := range rs {
		if i == 0 {
			b = appendTitleCh(b, r)
		} else {
			b = appendLowerAt(b, rs, i)
		}
	}
	return string(b)
}

// asciiCapitalize is str.capitalize of an ASCII s: s itself when it is
// capitalized already (no allocation), else one new string.
func asciiCapitalize(s string) string {
	first := 0
	if s != "" && 'a' <= s[0] && s[0] <= 'z' {
		first = 'a' - 'A'
	}
	i := 1
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if first == 0 && i >= len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteByte(s[0] - byte(first))
	b.WriteString(s[1:i])
	for ; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// appendASCIIUpper appends str.upper of an ASCII s.
func appendASCIIUpper(dst []byte, s string) []byte {
	n := len(dst)
	dst = append(dst, s...)
	for i, c := range dst[n:] {
		if 'a' <= c && c <= 'z' {
			dst[n+i] = c - ('a' - 'A')
		}
	}
	return dst
}

// appendASCIILower appends str.lower of an ASCII s.
func appendASCIILower(dst []byte, s string) []byte {
	n := len(dst)
	dst = append(dst, s...)
	for i, c := range dst[n:] {
		if 'A' <= c && c <= 'Z' {
			dst[n+i] = c + ('a' - 'A')
		}
	}
	return dst
}

// appendASCIICapitalize appends str.capitalize of an ASCII s: its first
// byte upper case, the others lower.
func appendASCIICapitalize(dst []byte, s string) []byte {
	n := len(dst)
	dst = appendASCIILower(dst, s)
	if len(s) > 0 {
		if c := dst[n]; 'a' <= c && c <= 'z' {
			dst[n] = c - ('a' - 'A')
		}
	}
	return dst
}

func allChars(s string, f func(rune) bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !f(r) {
			return false
		}
	}
	return true
}

// pyIsLower is str.islower: no character is upper or title case, and one
// is lower case.
func pyIsLower(s string) bool { return pyCasedAs(s, pyIsLowerCh, pyIsUpperCh) }

// pyIsUpper is str.isupper: no character is lower or title case, and one
// is upper case.
func pyIsUpper(s string) bool { return pyCasedAs(s, pyIsUpperCh, pyIsLowerCh) }

// pyCasedAs reports whether s has a character of the case is and none of
// the case other or of title case.
func pyCasedAs(s string, is, other func(rune) bool) bool {
	cased := false
	for _, r := range s {
		if other(r) || pyIsTitleCh(r) {
			return false
		}
		if !cased && is(r) {
			cased = true
		}
	}
	return cased
}

func pyIsTitle(s string) bool {
	cased, prevCased := false, false
	for _, r := range s {
		if pyIsUpperCh(r) || pyIsTitleCh(r) {
			if prevCased {
				return false
			}
			prevCased, cased = true, true
		} else if pyIsLowerCh(r) {
			if !prevCased {
				return false
			}
			prevCased, cased = true, true
		} else {
			prevCased = false
		}
	}
	return cased
}

func pyIsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		// XID_Start, then XID_Continue, of Unicode 14 (the lexer's)
		if i == 0 && !isIdentStart(r) || i > 0 && !isIdentCont(r) || !pyAssigned14(r) {
			return false
		}
	}
	return true
}

func pyStrip(s string, chars *string, left, right bool) string {
	if chars == nil && left && right {
		return pyStripSpace(s)
	}
	f := pyIsSpace
	if chars != nil {
		set := *chars
		f = func(r rune) bool { return strings.ContainsRune(set, r) }
	}
	if left {
		s = strings.TrimLeftFunc(s, f)
	}
	if right {
		s = strings.TrimRightFunc(s, f)
	}
	return s
}

// pyStripSpace is str.strip(): Python's whitespace off both ends, a byte
// at a time while the ends are ASCII.
func pyStripSpace(s string) string {
	for len(s) > 0 {
		if b := s[0]; b < utf8.RuneSelf {
			if !pyIsSpace(rune(b)) {
				break
			}
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRuneInString(s)
		if !pyIsSpace(r) {
			break
		}
		s = s[n:]
	}
	for len(s) > 0 {
		if b := s[len(s)-1]; b < utf8.RuneSelf {
			if !pyIsSpace(rune(b)) {
				break
			}
			s = s[:len(s)-1]
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !pyIsSpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// pySplitSpace is str.split(None, maxsplit).
func pySplitSpace(s string, maxsplit int) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !pyIsSpace(r) {
				break
			}
			i += n
		}
		if i >= len(s) {
			return out
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			out = append(out, s[i:])
			return out
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if pyIsSpace(r) {
				break
			}
			j += n
		}
		out = append(out, s[i:j])
		i = j
	}
}

// pyRSplitSpace is str.rsplit(None, maxsplit).
func pyRSplitSpace(s string, maxsplit int) []string {
	var out []string
	j := len(s)
	for {
		for j > 0 {
			r, n := utf8.DecodeLastRuneInString(s[:j])
			if !pyIsSpace(r) {
				break
			}
			j -= n
		}
		if j <= 0 {
			break
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			out = append(out, s[:j])
			break
		}
		i := j
		for i > 0 {
			r, n := utf8.DecodeLastRuneInString(s[:i])
			if pyIsSpace(r) {
				break
			}
			i -= n
		}
		out = append(out, s[i:j])
		j = i
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

func pyRSplit(s, sep string, maxsplit int) []string {
	var out []string
	for maxsplit < 0 || len(out) < maxsplit {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		out = append(out, s[i+len(sep):])
		s = s[:i]
	}
	out = append(out, s)
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// pySplitLines is str.splitlines(keepends).
func pySplitLines(s string, keepends bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			end := i + n
			if r == '\r' && end < len(s) && s[end] == '\n' {
				end++
			}
			if keepends {
				out = append(out, s[start:end])
			} else {
				out = append(out, s[start:i])
			}
			start = end
			i = end
			continue
		}
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func pyExpandTabs(s string, tab int) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			if tab > 0 {
				n := tab - col%tab
				b.WriteString(strings.Repeat(" ", n))
				col += n
			}
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// runeSpan converts Python's start/end (code points, negative from the
// end) into byte offsets of s, clamped.
func runeSpan(s string, start, end *int64) (int, int) {
	n := int64(runeCountW(s))
	lo, hi := int64(0), n
	if start != nil {
		lo = *start
		if lo < 0 {
			lo += n
			if lo < 0 {
				lo = 0
			}
		}
	}
	if end != nil {
		hi = pyIndex(*end, n)
	}
	if lo > n {
		return -1, -1
	}
	if hi < lo {
		return runeOffset(s, lo), -1
	}
	return runeOffset(s, lo), runeOffset(s, hi)
}

// pyIndex reads i as Python reads a slice's end or list.insert's index
// into n items: a negative i counts from the end, and the result is
// clamped to [0, n].
func pyIndex(i, n int64) int64 {
	if i < 0 {
		return max(i+n, 0)
	}
	return min(i, n)
}

// runeOffset is the byte offset of the i-th code point of s.
func runeOffset(s string, i int64) int {
	if isASCII(s) {
		return int(i)
	}
	if hasSurrogate(s) {
		off := 0
		for ; off < len(s) && i > 0; i-- {
			_, n := decodeRuneW(s[off:])
			off += n
		}
		return off
	}
	for off := range s {
		if i == 0 {
			return off
		}
		i--
	}
	return len(s)
}

// runeCount is the number of code points in s[:off].
func runeCount(s string, off int) int { return runeCountW(s[:off]) }
