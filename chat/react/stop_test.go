package react_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/react"
)

// naiveCut cuts text at the earliest start of any stop word, by brute force.
func naiveCut(text string, words []string) string {
	for i := 0; i <= len(text); i++ {
		for _, w := range words {
			if w != "" && strings.HasPrefix(text[i:], w) {
				return text[:i]
			}
		}
	}
	return text
}

// push writes chunks to a StopWriter for the words and returns it, all it
// passed on and the piece it passed on for each chunk and for Close.
func push(t testing.TB, words []string, chunks []string) (*react.StopWriter, string, []string) {
	var b strings.Builder
	w := react.NewStopWriter(&b, words...)
	var pieces []string
	last := 0
	for _, c := range chunks {
		n, err := w.Write([]byte(c))
		if err != nil || n != len(c) {
			t.Fatalf("Write(%q) = %d, %v", c, n, err)
		}
		pieces = append(pieces, b.String()[last:])
		last = b.Len()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pieces = append(pieces, b.String()[last:])
	return w, b.String(), pieces
}

func TestCut(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		words []string
		want  string
	}{
		{"no stop word", "Thought: t", react.StopWords(), "Thought: t"},
		{"observation", "Action Input: {}\nObservation: x", react.StopWords(), "Action Input: {}\n"},
		{"earliest start wins", "abXYZ", []string{"YZ", "bXY"}, "a"},
		{"longer word starting earlier", "abcd", []string{"bc", "abcd"}, ""},
		{"empty words ignored", "abc", []string{"", "c"}, "ab"},
		{"no words", "abc", nil, "abc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, react.Cut(tc.text, tc.words))
			assert.Equal(t, tc.want, naiveCut(tc.text, tc.words))
		})
	}
}

func TestStopWriterChunks(t *testing.T) {
	tests := []struct {
		name   string
		words  []string
		chunks []string
		want   string
		pieces []string
	}{
		{"split stop word", nil,
			[]string{"Thought: t\nAction: f\nAction Input: {}\nObs", "erva", "tion: x", " more"},
			"Thought: t\nAction: f\nAction Input: {}\n",
			[]string{"Thought: t\nAction: f\nAction Input: {}\n", "", "", "", ""}},
		{"false start released", nil,
			[]string{"an Obs", "cure answer"},
			"an Obscure answer",
			[]string{"an ", "Obscure answer", ""}},
		{"byte by byte", nil,
			strings.Split("x Observation: y", ""),
			"x ", nil},
		{"held tail flushed at close", nil,
			[]string{"ends with Observ"},
			"ends with Observ",
			[]string{"ends with ", "Observ"}},
		{"earlier partial beats later match", []string{"abcd", "bc"},
			[]string{"abc", "d"},
			"", []string{"", "", ""}},
		{"earlier partial fails", []string{"abcd", "bc"},
			[]string{"abc", "x"},
			"a", []string{"", "a", ""}},
		{"utf-8 split across chunks", nil,
			[]string{"画只\xe7", "\x8c\xab"},
			"画只猫", []string{"画只", "猫", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, got, pieces := push(t, tc.words, tc.chunks)
			assert.Equal(t, tc.want, got)
			if tc.pieces != nil {
				assert.Equal(t, tc.pieces, pieces)
			}
			text := strings.Join(tc.chunks, "")
			words := tc.words
			if words == nil {
				words = react.StopWords()
			}
			assert.Equal(t, react.Cut(text, words) != text, s.Stopped())
		})
	}
}

func TestStopWriterAfterStop(t *testing.T) {
	s, got, pieces := push(t, nil, []string{"aObservation:b", "more"})
	assert.Equal(t, "a", got)
	assert.Equal(t, []string{"a", "", ""}, pieces)
	assert.True(t, s.Stopped())
}

func TestStopWriter(t *testing.T) {
	var b bytes.Buffer
	w := react.NewStopWriter(&b)
	for _, c := range []string{"Thought: t\nAction: f\nAction Input: {}\nObser", "vation: x", "y"} {
		n, err := w.Write([]byte(c))
		require.NoError(t, err)
		assert.Equal(t, len(c), n)
	}
	require.NoError(t, w.Close())
	assert.True(t, w.Stopped())
	assert.Equal(t, "Thought: t\nAction: f\nAction Input: {}\n", b.String())
}

// FuzzStop checks that, for any text and any way of cutting it into chunks,
// a StopWriter passes on exactly the text cut at its first stop word, and
// never a piece that splits a UTF-8 character.
func FuzzStop(f *testing.F) {
	f.Add("Thought: t\nAction: f\nAction Input: {}\nObservation: x", []byte{3, 40, 1, 1, 1}, "")
	f.Add("no stop word here", []byte{1}, "")
	f.Add("abXYZ", []byte{1, 1, 1, 1, 1}, "YZ|bXY")
	f.Add("abcd", []byte{3}, "abcd|bc")
	f.Add("abcx", []byte{3}, "abcd|bc")
	f.Add("Observation:\n", []byte{12}, "")
	f.Add("ObsObsObservation:", []byte{2, 2, 2, 2}, "")
	f.Add("画只猫 Observation: 猫", []byte{4, 1, 1}, "")
	f.Add("aaab", []byte{1, 1, 1}, "aab|ab")
	f.Add("", []byte{}, "x")
	f.Fuzz(func(t *testing.T, text string, cuts []byte, wordList string) {
		words := react.StopWords()
		if wordList != "" {
			words = strings.Split(wordList, "|")
		}
		var chunks []string
		rest := text
		for _, c := range cuts {
			n := min(int(c), len(rest))
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		chunks = append(chunks, rest)

		s, got, pieces := push(t, words, chunks)
		want := naiveCut(text, words)
		if got != want {
			t.Fatalf("text %q in chunks %q, words %q: got %q, want %q", text, chunks, words, got, want)
		}
		if react.Cut(text, words) != want {
			t.Fatalf("Cut(%q, %q) = %q, want %q", text, words, react.Cut(text, words), want)
		}
		if s.Stopped() != (want != text) {
			t.Fatalf("text %q, words %q: Stopped() = %v", text, words, s.Stopped())
		}
		if utf8.ValidString(text) && utf8.ValidString(wordList) {
			for _, p := range pieces {
				if !utf8.ValidString(p) {
					t.Fatalf("text %q in chunks %q: piece %q splits a character", text, chunks, p)
				}
			}
		}
	})
}
