package jinja2

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Python's unicode-escape codec decodes \N{name} by the names of the running
// Python's unicodedata: CPython 3.11's, Unicode 14.0.0 (a character new in
// 15.0 has no name there). unicode_names.z holds those names and the name
// aliases, compressed (testdata/unicodenames.py writes it from Python's own
// unicodedata); it is read into a map on the first \N escape, so templates
// without one pay nothing. docs/decisions.md says why this form.

//go:embed unicode_names.z
var uniNamesZ []byte

var (
	uniNamesOnce sync.Once
	uniNames     map[string]rune
)

func loadUniNames() {
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(uniNamesZ)))
	if err != nil {
		panic("jinja2: unicode_names.z: " + err.Error())
	}
	m := make(map[string]rune, uniNamesCount)
	s := string(raw)
	next, aliases := rune(0), false
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		line := s[:i]
		s = s[i+1:]
		switch {
		case line == "#":
			aliases = true
		case aliases:
			sp := strings.IndexByte(line, ' ')
			n, _ := strconv.ParseUint(line[:sp], 16, 32)
			m[line[sp+1:]] = rune(n)
		case line[0] == '@':
			n, _ := strconv.ParseUint(line[1:], 16, 32)
			next = rune(n)
		default:
			m[line] = next
			next++
		}
	}
	uniNames = m
}

// lookupUniName is CPython 3.11's _getcode without named sequences: the
// Hangul syllables and CJK unified ideographs by their algorithms (in upper
// case only, as Unicode writes them), other names and the aliases in any
// ASCII case.
func lookupUniName(name string) (rune, bool) {
	const hangul, cjk = "HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-"
	if s, ok := strings.CutPrefix(name, hangul); ok {
		return hangulSyllable(s)
	}
	if h, ok := strings.CutPrefix(name, cjk); ok {
		if len(h) != 4 && len(h) != 5 {
			return 0, false
		}
		v := rune(0)
		for i := 0; i < len(h); i++ {
			switch c := h[i]; {
			case c >= '0' && c <= '9':
				v = v*16 + rune(c-'0')
			case c >= 'A' && c <= 'F':
				v = v*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		for _, r := range uniNamesCJK {
			if r[0] <= v && v <= r[1] {
				return v, true
			}
		}
		return 0, false
	}
	uniNamesOnce.Do(loadUniNames)
	r, ok := uniNames[asciiUpper(name)]
	return r, ok
}

func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'a' && c <= 'z' {
					b[j] = c - 'a' + 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// The jamo short names of the Hangul syllables' leading consonants, vowels
// and trailing consonants, in Unicode's order.
var (
	hangulL = [...]string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	hangulV = [...]string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	hangulT = [...]string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// hangulSyllable reads what follows "HANGUL SYLLABLE " as CPython does: in
// each of the three parts, the first of the longest short names the text
// starts with (case-sensitively), with no going back.
func hangulSyllable(s string) (rune, bool) {
	find := func(names []string) int {
		best, n := -1, -1
		for i, nm := range names {
			if len(nm) > n && strings.HasPrefix(s, nm) {
				best, n = i, len(nm)
			}
		}
		if n > 0 {
			s = s[n:]
		}
		return best
	}
	l := find(hangulL[:])
	v := find(hangulV[:])
	t := find(hangulT[:])
	if l < 0 || v < 0 || t < 0 || s != "" {
		return 0, false
	}
	return rune(0xAC00 + (l*len(hangulV)+v)*len(hangulT) + t), true
}
