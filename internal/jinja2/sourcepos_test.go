package jinja2

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSourcePosInAnyOrder: pos counts from the place it computed last
// when asked on the same line; asked in any order, over lines of
// multi-byte text and past the end, it gives the place counted from the
// line's start.
func TestSourcePosInAnyOrder(t *testing.T) {
	text := "héllo {{ x }}\n\n😀😀 {{ y\n}} end" + strings.Repeat("ü+", 50)
	s := newSource("t", text)
	naive := func(off int) Pos {
		off = min(off, len(text))
		line := strings.Count(text[:off], "\n") + 1
		start := strings.LastIndexByte(text[:off], '\n') + 1
		return Pos{Line: line, Col: utf8.RuneCountInString(text[start:off]) + 1}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		off := r.IntN(len(text) + 3)
		if i%3 == 0 {
			off = max(0, min(s.lastOff+r.IntN(9)-4, len(text)+2)) // near the last, as the parser asks
		}
		if !utf8.RuneStart(text[min(off, len(text)-1)]) && off < len(text) {
			continue // the lexer asks at a token's first byte
		}
		if got, want := s.pos(off), naive(off); got != want {
			t.Fatalf("pos(%d) = %v, want %v", off, got, want)
		}
	}
}

// BenchmarkParseOneLongLine parses a template of one 120 KB line (a
// 40,000-term sum): counting each token's column from the line's start
// made it quadratic.
func BenchmarkParseOneLongLine(b *testing.B) {
	src := "{{ 1" + strings.Repeat("+1", 40000) + " }}"
	env := New()
	for b.Loop() {
		if _, err := env.Parse("t", src); err != nil {
			b.Fatal(err)
		}
	}
}
