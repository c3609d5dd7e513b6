package jinja2

import (
	"math"
	"strings"
)

// The wordwrap filter: Python's textwrap.wrap(line, width,
// expand_tabs=False, replace_whitespace=False, break_long_words,
// break_on_hyphens) on every line.

func twSpace(r rune) bool { return r == ' ' || (r >= '\t' && r <= '\r') }

func reWord(r rune) bool { return r == '_' || pyIsAlnum(r) }

func reLetter(r rune) bool { return reWord(r) && !pyIsDecimal(r) }

func reWordPunct(r rune) bool { return reWord(r) || strings.ContainsRune(`!"'&.,?`, r) }

// twChunks is TextWrapper._split_chunks.
func twChunks(t []rune, hyphens bool) [][]rune {
	var chunks [][]rune
	at := func(i int) rune {
		if i < 0 || i >= len(t) {
			return -1
		}
		return t[i]
	}
	letter := func(i int) bool { r := at(i); return r >= 0 && reLetter(r) }
	// emDashAhead reports whether t[j:] is -{2,}\w.
	emDashAhead := func(j int) bool {
		k := j
		for k < len(t) && t[k] == '-' {
			k++
		}
		return k-j >= 2 && k < len(t) && reWord(t[k])
	}
	for i := 0; i < len(t); {
		if twSpace(t[i]) {
			j := i
			for j < len(t) && twSpace(t[j]) {
				j++
			}
			chunks = append(chunks, t[i:j])
			i = j
			continue
		}
		if !hyphens {
			j := i
			for j < len(t) && !twSpace(t[j]) {
				j++
			}
			chunks = append(chunks, t[i:j])
			i = j
			continue
		}
		// (?<=wp) -{2,} (?=\w)
		if t[i] == '-' && i > 0 && reWordPunct(t[i-1]) {
			j := i
			for j < len(t) && t[j] == '-' {
				j++
			}
			// the regex backtracks over the dashes to find a \w after
			if j-i >= 2 && j < len(t) && reWord(t[j]) {
				chunks = append(chunks, t[i:j])
				i = j
				continue
			}
		}
		end := -1
		for j := i + 1; j <= len(t) && !twSpace(t[j-1]); j++ {
			// hyphenated word
			if at(j) == '-' && ((letter(j-2) && letter(j-1)) || (letter(j-3) && at(j-2) == '-' && letter(j-1))) {
				k := j + 1
				if letter(k) && (letter(k+1) || at(k+1) == '-' && letter(k+2)) {
					end = j + 1
					break
				}
			}
			// end of word
			if j == len(t) || twSpace(t[j]) {
				end = j
				break
			}
			// em-dash
			if reWordPunct(t[j-1]) && emDashAhead(j) {
				end = j
				break
			}
		}
		if end < 0 {
			end = i + 1
		}
		chunks = append(chunks, t[i:end])
		i = end
	}
	return chunks
}

func isBlankChunk(c []rune) bool {
	for _, r := range c {
		if !pyIsSpace(r) {
			return false
		}
	}
	return true
}

// textwrapWrap is textwrap.wrap with the wordwrap filter's options. A
// float width (fw, when isFloat) compares as it is; the slices of a long
// word it would cut are Python's TypeError. TextWrapper splits at hyphens
// when break_on_hyphens is True itself (splitHyphens) and cuts a long word
// after a hyphen when it is true (hyphens).
func textwrapWrap(text string, width int, fw float64, isFloat, breakLong, hyphens, splitHyphens bool) ([]string, error) {
	if !isFloat {
		fw = float64(width)
	}
	chunks := twChunks(runesW(text), splitHyphens)
	// reversed, as TextWrapper keeps them
	for a, b := 0, len(chunks)-1; a < b; a, b = a+1, b-1 {
		chunks[a], chunks[b] = chunks[b], chunks[a]
	}
	var lines []string
	for len(chunks) > 0 {
		var cur [][]rune
		curLen := 0
		if isBlankChunk(chunks[len(chunks)-1]) && len(lines) > 0 {
			chunks = chunks[:len(chunks)-1]
		}
		for len(chunks) > 0 {
			l := len(chunks[len(chunks)-1])
			if float64(curLen+l) > fw {
				break
			}
			cur = append(cur, chunks[len(chunks)-1])
			chunks = chunks[:len(chunks)-1]
			curLen += l
		}
		if len(chunks) > 0 && float64(len(chunks[len(chunks)-1])) > fw {
			spaceLeft := width - curLen
			if fw < 1 {
				spaceLeft = 1
			} else if isFloat && breakLong {
				// chunk.rfind('-', 0, space_left) or chunk[:space_left]
				// with a float
				return nil, typeErr("slice indices must be integers or None or have an __index__ method")
			}
			if breakLong {
				end := spaceLeft
				chunk := chunks[len(chunks)-1]
				if hyphens && len(chunk) > spaceLeft {
					hy := -1
					for k := spaceLeft - 1; k >= 0; k-- {
						if chunk[k] == '-' {
							hy = k
							break
						}
					}
					if hy > 0 {
						for _, r := range chunk[:hy] {
							if r != '-' {
								end = hy + 1
								break
							}
						}
					}
				}
				cur = append(cur, chunk[:end])
				chunks[len(chunks)-1] = chunk[end:]
			} else if len(cur) == 0 {
				cur = append(cur, chunks[len(chunks)-1])
				chunks = chunks[:len(chunks)-1]
			}
		}
		if len(cur) > 0 && isBlankChunk(cur[len(cur)-1]) {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			var b []byte
			for _, c := range cur {
				for _, r := range c {
					b = appendRuneW(b, r)
				}
			}
			lines = append(lines, string(b))
		}
	}
	return lines, nil
}

func fWordwrap(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("do_wordwrap", args, kw, "width", "break_long_words", "wrapstring", "break_on_hyphens")
	if err != nil {
		return Value{}, err
	}
	breakLong := !set[1] || a[1].Truth()
	hyphens := !set[3] || a[3].Truth()
	// TextWrapper._split tests "break_on_hyphens is True"
	splitHyphens := !set[3] || a[3].kind == KindBool && a[3].Truth()
	// Jinja2 reads wrapstring.join, then s.splitlines(), and textwrap
	// checks the width for each line: in that order they fail.
	wrap := "\n"
	if set[2] && a[2].kind != KindNone {
		switch a[2].kind {
		case KindStr:
			wrap = a[2].s
		case KindUndefined:
			return Value{}, a[2].undefErr()
		default:
			return Value{}, pyErr("AttributeError", "'%s' object has no attribute 'join'", TypeName(a[2]))
		}
	}
	if b, ok := v.ref.(*bytesObj); ok && v.kind == KindObject {
		// bytes split into lines too, and textwrap's str pattern fails
		// on the first one
		if b.b != "" {
			return Value{}, typeErr("cannot use a string pattern on a bytes-like object")
		}
		v = StrV("")
	}
	if v.kind != KindStr {
		if v.kind == KindUndefined {
			return Value{}, v.undefErr()
		}
		return Value{}, noAttrErr(v, "splitlines")
	}
	lines := pySplitLines(v.s, false)
	width := int64(79)
	var fw float64
	isFloat := false
	if set[0] && len(lines) > 0 {
		switch w := a[0]; {
		case w.kind == KindUndefined:
			return Value{}, w.undefErr() // width <= 0
		case isIntLike(w) && w.isBig():
			if w.big().Sign() < 0 {
				return Value{}, valueErr("invalid width %s (must be > 0)", Repr(w))
			}
			width = math.MaxInt32
		case isIntLike(w):
			width = w.n
		case w.kind == KindFloat && math.IsNaN(w.f()):
			// textwrap loops for ever on a line with a chunk: none fits,
			// none is too long (Python never answers); empty lines have
			// none and wrap to nothing
			for _, line := range lines {
				if line != "" {
					return Value{}, &Error{Kind: "Unsupported", Msg: "wordwrap with a nan width is not supported: Python's textwrap never ends"}
				}
			}
			fw, isFloat = w.f(), true
		case w.kind == KindFloat:
			fw, isFloat = w.f(), true
			if fw <= 0 {
				return Value{}, valueErr("invalid width %s (must be > 0)", Repr(w))
			}
		default:
			return Value{}, typeErr("'<=' not supported between instances of '%s' and 'int'", TypeName(w))
		}
		if !isFloat && width <= 0 {
			return Value{}, valueErr("invalid width %s (must be > 0)", Repr(a[0]))
		}
	}
	// wrapstring.join(...) of textwrap's str chunks: Markup only when
	// wrapstring is (which escapes the chunks), whatever the text is
	wrapSafe := set[2] && a[2].IsSafe()
	var out []string
	for _, line := range lines {
		chunks, err := textwrapWrap(line, int(width), fw, isFloat, breakLong, hyphens, splitHyphens)
		if err != nil {
			return Value{}, err
		}
		if wrapSafe {
			for i := range chunks {
				chunks[i] = escapeFn(c)(chunks[i])
			}
		}
		out = append(out, strings.Join(chunks, wrap))
	}
	if wrapSafe {
		return SafeV(strings.Join(out, wrap)), nil
	}
	return StrV(strings.Join(out, wrap)), nil
}
