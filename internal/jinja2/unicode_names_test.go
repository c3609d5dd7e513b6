package jinja2

import (
	"testing"
)

// Every Hangul syllable's name, composed from its jamo as Unicode's
// algorithm says, reads back to the syllable (the oracle cases hold every
// 53rd; this holds the rest).
func TestUniNameHangulAll(t *testing.T) {
	for r := rune(0xAC00); r <= 0xD7A3; r++ {
		i := int(r - 0xAC00)
		l, v, tt := i/(21*28), i%(21*28)/28, i%28
		name := "HANGUL SYLLABLE " + hangulL[l] + hangulV[v] + hangulT[tt]
		if got, ok := lookupUniName(name); !ok || got != r {
			t.Fatalf("%s: got %U, %v; want %U", name, got, ok, r)
		}
	}
}

// The table holds what the generator counted, and each name is upper case.
func TestUniNameTable(t *testing.T) {
	uniNamesOnce.Do(loadUniNames)
	if len(uniNames) != uniNamesCount {
		t.Fatalf("%d names, want %d", len(uniNames), uniNamesCount)
	}
	for name, r := range uniNames {
		if asciiUpper(name) != name || r < 0 || r > 0x10FFFF {
			t.Fatalf("%q: %U", name, r)
		}
	}
	for _, tc := range []struct {
		name string
		want rune
		ok   bool
	}{
		{"bullet", 0x2022, true},
		{"LATIN CAPITAL LETTER GHA", 0x1A2, true}, // an alias
		{"CJK UNIFIED IDEOGRAPH-3134A", 0x3134A, true},
		{"CJK UNIFIED IDEOGRAPH-31350", 0, false}, // Unicode 15.0
		{"SHAKING FACE", 0, false},                // Unicode 15.0
		{"KATAKANA LETTER AINU P", 0, false},      // a named sequence
	} {
		if got, ok := lookupUniName(tc.name); got != tc.want || ok != tc.ok {
			t.Errorf("%s: got %U, %v; want %U, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func BenchmarkUniNamesLoad(b *testing.B) {
	for i := 0; i < b.N; i++ {
		loadUniNames()
	}
}
