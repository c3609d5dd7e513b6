package tokens

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// A splitter is a pre-tokenizer: it cuts a text into the pieces the model
// encodes one by one, calling emit with each piece in order.
type splitter interface {
	split(s string, emit func(string))
}

// A matcher is one regular expression written by hand: it reports the end of
// the match that starts at byte i of s, or -1 when none starts there. Matching
// sees s as the whole text, as a regular expression applied to s would.
type matcher func(s string, i int) int

// isolated splits s into the matches of m and the text between them (the
// "Isolated" behaviour of HuggingFace's Split pre-tokenizer, and what
// tiktoken's find_iter does for patterns that match everywhere).
type isolated struct{ m matcher }

func (p isolated) split(s string, emit func(string)) {
	gap, i := 0, 0
	for i < len(s) {
		if e := p.m(s, i); e > i {
			if gap < i {
				emit(s[gap:i])
			}
			emit(s[i:e])
			i, gap = e, e
			continue
		}
		_, w := decode(s, i)
		i += w
	}
	if gap < len(s) {
		emit(s[gap:])
	}
}

// sequence applies its splitters in turn, each to every piece of the last.
type sequence []splitter

func (q sequence) split(s string, emit func(string)) {
	if len(q) == 0 {
		emit(s)
		return
	}
	q[0].split(s, func(piece string) { q[1:].split(piece, emit) })
}

// whole does not split.
type whole struct{}

func (whole) split(s string, emit func(string)) { emit(s) }

// mergedWithPrevious splits after every occurrence of a literal string (the
// "MergedWithPrevious" behaviour of a Split pre-tokenizer with a String
// pattern).
type mergedWithPrevious string

func (p mergedWithPrevious) split(s string, emit func(string)) {
	sep := string(p)
	start := 0
	for i := 0; i+len(sep) <= len(s); {
		if s[i:i+len(sep)] == sep {
			i += len(sep)
			emit(s[start:i])
			start = i
			continue
		}
		i++
	}
	if start < len(s) {
		emit(s[start:])
	}
}

// Character classes. The ASCII ones come from a table; the others from the
// unicode package (Unicode 15.0 in Go 1.26).
const (
	cL     = 1 << iota // \p{L}
	cN                 // \p{N}
	cS                 // \s: White_Space
	cNL                // \r or \n
	cUpper             // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower             // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cM                 // \p{M}
	cPS                // [\p{P}\p{S}]
)

var asciiClass = func() (t [128]uint8) {
	for r := rune(0); r < 128; r++ {
		t[r] = slowClass(r)
	}
	return t
}()

// bmpClass holds the classes of the Basic Multilingual Plane, made the
// first time a tokenizer is loaded (about a millisecond).
var bmpClass = sync.OnceValue(func() *[0x10000]uint8 {
	t := new([0x10000]uint8)
	for r := rune(0); r < 0x10000; r++ {
		t[r] = slowClass(r)
	}
	return t
})

func slowClass(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= cL
	}
	if unicode.IsNumber(r) {
		c |= cN
	}
	if unicode.IsSpace(r) {
		c |= cS
	}
	if r == '\r' || r == '\n' {
		c |= cNL
	}
	m := unicode.IsMark(r)
	if m {
		c |= cM
	}
	if m || unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo) {
		c |= cUpper
	}
	if m || unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo) {
		c |= cLower
	}
	if unicode.IsPunct(r) || unicode.IsSymbol(r) {
		c |= cPS
	}
	return c
}

// decode returns the rune at byte i of s and its width. s is valid UTF-8
// (Tokenizer.Encode replaces what is not).
func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// class returns the classes of the rune at byte i of s and its width; at the
// end of s it returns 0, 0.
func class(s string, i int) (uint8, int) {
	if i >= len(s) {
		return 0, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if r < 0x10000 {
		return bmpClass()[r], w
	}
	return slowClass(r), w
}

// run returns the end of the run of characters with any of the classes want,
// from byte i.
func run(s string, i int, want uint8) int {
	for i < len(s) {
		c, w := class(s, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}

// contraction matches (?i:'s|'t|'re|'ve|'m|'ll|'d) at byte i, returning its
// end or -1. Case folding is Unicode's simple folding, under which s also
// matches U+017F (ſ).
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return -1
	}
	i++
	if i >= len(s) {
		return -1
	}
	switch s[i] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 1
	case 'r', 'v':
		if i+1 < len(s) && s[i+1]|0x20 == 'e' {
			return i + 2
		}
		return -1
	case 'l':
		if i+1 < len(s) && s[i+1]|0x20 == 'l' {
			return i + 2
		}
		return -1
	}
	// ſ (U+017F, C5 BF) folds to s.
	if i+1 < len(s) && s[i] == 0xc5 && s[i+1] == 0xbf {
		return i + 2
	}
	return -1
}

// spaces matches the three whitespace alternatives every pattern here ends
// with, \s*[\r\n]+|\s+(?!\S)|\s+, at byte i, where a whitespace character is.
func spaces(s string, i int) int {
	j := i
	lastNL, lastStart, n := -1, i, 0
	for j < len(s) {
		c, w := class(s, j)
		if c&cS == 0 {
			break
		}
		if c&cNL != 0 {
			lastNL = j
		}
		lastStart = j
		j += w
		n++
	}
	if n == 0 {
		return -1
	}
	if lastNL >= 0 {
		return lastNL + 1 // \s*[\r\n]+ ends after the run's last newline
	}
	if j == len(s) || n == 1 {
		return j // \s+(?!\S) at the end of the text, or \s+ for one character
	}
	return lastStart // \s+(?!\S) gives back the character before \S
}

// cl100k matches the pattern of tiktoken's cl100k_base (and of Llama 3 and,
// with maxDigits 1, Qwen 2 and 3):
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func cl100k(maxDigits int) matcher {
	return func(s string, i int) int {
		if e := contraction(s, i); e >= 0 {
			return e
		}
		c, w := class(s, i)
		switch {
		case c&cL != 0:
			return run(s, i+w, cL)
		case c&cN != 0:
			j := i + w
			for k := 1; k < maxDigits; k++ {
				c2, w2 := class(s, j)
				if c2&cN == 0 {
					break
				}
				j += w2
			}
			return j
		}
		if c&cNL == 0 {
			// [^\r\n\p{L}\p{N}]\p{L}+
			if c2, _ := class(s, i+w); c2&cL != 0 {
				return run(s, i+w, cL)
			}
		}
		if e := punct(s, i, c, w, false); e >= 0 {
			return e
		}
		return spaces(s, i)
	}
}

// punct matches ` ?[^\s\p{L}\p{N}]+[\r\n]*` at byte i (c and w are the
// class and width of the character there), or with slash set
// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`.
func punct(s string, i int, c uint8, w int, slash bool) int {
	const word = cS | cL | cN
	j := i
	if s[i] == ' ' {
		if i+1 >= len(s) {
			return -1
		}
		if c2, _ := class(s, i+1); c2&word != 0 {
			return -1
		}
		j = i + 1
	} else if c&word != 0 {
		return -1
	}
	for j < len(s) {
		c2, w2 := class(s, j)
		if c2&word != 0 {
			break
		}
		j += w2
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || slash && s[j] == '/') {
		j++
	}
	return j
}

// o200k matches the pattern of tiktoken's o200k_base (and gpt-oss):
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func o200k(s string, i int) int {
	c, w := class(s, i)
	prefix := c&(cNL|cL|cN) == 0
	// First alternative, with the optional prefix and then without.
	if prefix {
		if e := upperLower(s, i+w); e >= 0 {
			return e
		}
	}
	if e := upperLower(s, i); e >= 0 {
		return e
	}
	// Second alternative.
	if prefix {
		if e := upperThenLower(s, i+w); e >= 0 {
			return e
		}
	}
	if e := upperThenLower(s, i); e >= 0 {
		return e
	}
	if c&cN != 0 {
		j := i + w
		for k := 1; k < 3; k++ {
			c2, w2 := class(s, j)
			if c2&cN == 0 {
				break
			}
			j += w2
		}
		return j
	}
	if e := punct(s, i, c, w, true); e >= 0 {
		return e
	}
	return spaces(s, i)
}

// upperLower matches U*L+ and an optional contraction at byte j, where U is
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and L is [\p{Ll}\p{Lm}\p{Lo}\p{M}], with the
// backtracking a regular expression does: U* gives back characters until L+
// can match.
func upperLower(s string, j int) int {
	k := j
	lastLower := -1 // start of the last character in U* that is also in L
	lastLowerEnd := -1
	for k < len(s) {
		c, w := class(s, k)
		if c&cUpper == 0 {
			break
		}
		if c&cLower != 0 {
			lastLower, lastLowerEnd = k, k+w
		}
		k += w
	}
	var end int
	if c, _ := class(s, k); k < len(s) && c&cLower != 0 {
		end = run(s, k, cLower)
	} else if lastLower >= 0 {
		// L+ matches that one character: the one after it is not in L.
		end = lastLowerEnd
	} else {
		return -1
	}
	if e := contraction(s, end); e >= 0 {
		return e
	}
	return end
}

// upperThenLower matches U+L* and an optional contraction at byte j.
func upperThenLower(s string, j int) int {
	k := run(s, j, cUpper)
	if k == j {
		return -1
	}
	k = run(s, k, cLower)
	if e := contraction(s, k); e >= 0 {
		return e
	}
	return k
}

// deepseekDigits matches \p{N}{1,3}, DeepSeek V3's first split.
func deepseekDigits(s string, i int) int {
	j := i
	for k := 0; k < 3; k++ {
		c, w := class(s, j)
		if c&cN == 0 {
			break
		}
		j += w
	}
	if j == i {
		return -1
	}
	return j
}

// deepseekCJK matches [\x{4e00}-\x{9fa5}\x{3040}-\x{309f}\x{30a0}-\x{30ff}]+,
// DeepSeek V3's second split.
func deepseekCJK(s string, i int) int {
	j := i
	for j < len(s) {
		r, w := decode(s, j)
		if !(r >= 0x4e00 && r <= 0x9fa5 || r >= 0x3040 && r <= 0x30ff) {
			break
		}
		j += w
	}
	if j == i {
		return -1
	}
	return j
}

// deepseekWords matches DeepSeek V3's third split:
//
//	[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func deepseekWords(s string, i int) int {
	b := s[i]
	if b < 0x80 && isASCIIPunct(b) {
		j := i + 1
		for j < len(s) && (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z') {
			j++
		}
		if j > i+1 {
			return j
		}
	}
	c, w := class(s, i)
	if c&(cNL|cL|cPS) == 0 {
		if c2, _ := class(s, i+w); c2&(cL|cM) != 0 {
			return run(s, i+w, cL|cM)
		}
	}
	if c&(cL|cM) != 0 {
		return run(s, i+w, cL|cM)
	}
	// ' ?[\p{P}\p{S}]+[\r\n]*'
	j := i
	if b == ' ' {
		if c2, _ := class(s, i+1); c2&cPS != 0 {
			j = i + 1
		}
	}
	if c2, _ := class(s, j); c2&cPS != 0 {
		j = run(s, j, cPS)
		for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
			j++
		}
		return j
	}
	if c&cS != 0 {
		return spaces(s, i)
	}
	return -1
}

func isASCIIPunct(b byte) bool {
	return b >= '!' && b <= '/' || b >= ':' && b <= '@' || b >= '[' && b <= '`' || b >= '{' && b <= '~'
}
