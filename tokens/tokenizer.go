package tokens

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Tokenizer turns text into a model's token ids. It is safe for concurrent
// use. Make one with OpenAI, LoadTiktoken or LoadHF.
type Tokenizer struct {
	name string
	// added are the tokens matched in the text before anything else: the
	// special tokens of a tiktoken encoding, the added tokens of a
	// tokenizer.json. special marks those EncodeOrdinary leaves as text.
	added   *addedSet
	special map[int]bool
	// normalize rewrites each stretch of text between added tokens; nil
	// leaves it as it is.
	normalize func(string) string
	split     splitter
	model     *bpe
	// prefix and suffix are what the post-processor adds around a text's
	// ids (tokenizer.json's TemplateProcessing), for EncodeWithSpecial.
	prefix, suffix []int
	vocabSize      int

	// For EncodeOffsets (offsets.go): normalize with alignments, whether
	// the post-processor trims offsets, and each token's length, made the
	// first time they are needed.
	alignNorm   func(string) (string, []int, []int)
	trimOffsets bool
	lensOnce    sync.Once
	lens        []int32
}

// Name is the name the tokenizer was made with: an encoding's name, or what
// LoadHF was given.
func (t *Tokenizer) Name() string { return t.name }

// VocabSize is one more than the largest id the tokenizer gives.
func (t *Tokenizer) VocabSize() int { return t.vocabSize }

// Encode returns the ids of text, with the special and added tokens written in
// it read as those tokens (tiktoken's encode with allowed_special="all";
// tokenizer.json's encode with add_special_tokens=False). Invalid UTF-8 is
// read as U+FFFD, one for each maximal ill-formed subsequence, as the
// WHATWG decoder (and so a JavaScript string) reads it.
func (t *Tokenizer) Encode(text string) []int {
	return t.encode(text, true, nil)
}

// EncodeOrdinary returns the ids of text with special tokens read as plain
// text (tiktoken's encode_ordinary). A tokenizer.json's added tokens that are
// not special are still matched.
func (t *Tokenizer) EncodeOrdinary(text string) []int {
	return t.encode(text, false, nil)
}

// EncodeWithSpecial is Encode with the tokens the tokenizer adds around a
// text (a beginning-of-sequence token, say), as tokenizer.json's encode with
// add_special_tokens=True. For a tiktoken encoding it is Encode.
func (t *Tokenizer) EncodeWithSpecial(text string) []int {
	out := append([]int(nil), t.prefix...)
	out = t.encode(text, true, out)
	return append(out, t.suffix...)
}

// Count returns len(Encode(text)).
func (t *Tokenizer) Count(text string) int {
	return len(t.Encode(text))
}

func (t *Tokenizer) encode(text string, special bool, out []int) []int {
	if !utf8.ValidString(text) {
		text = replaceInvalid(text)
	}
	if out == nil {
		out = make([]int, 0, len(text)/3+1)
	}
	emit := func(piece string) { out = t.model.encode(piece, out) }
	plain := func(s string) {
		if s == "" {
			return
		}
		if t.normalize != nil {
			s = t.normalize(s)
		}
		t.split.split(s, emit)
	}
	if t.added == nil {
		plain(text)
		return out
	}
	for len(text) > 0 {
		i, n, id := t.added.find(text, special, t.special)
		if n == 0 {
			plain(text)
			break
		}
		plain(text[:i])
		out = append(out, id)
		text = text[i+n:]
	}
	return out
}

// addedSet finds added tokens in a text: the leftmost, and of those
// starting there the longest (how tokenizers' Aho-Corasick and tiktoken's
// alternation of special tokens both choose). It is a byte trie.
type addedSet struct {
	nodes []trieNode
	first [256]int32 // the root's children, -1 for none
}

type trieNode struct {
	edges []trieEdge
	id    int // -1 where no token ends
}

type trieEdge struct {
	b    byte
	node int32
}

func newAddedSet(tokens map[string]int) *addedSet {
	if len(tokens) == 0 {
		return nil
	}
	a := &addedSet{nodes: []trieNode{{id: -1}}}
	for i := range a.first {
		a.first[i] = -1
	}
	texts := make([]string, 0, len(tokens))
	for text := range tokens {
		texts = append(texts, text)
	}
	sort.Strings(texts)
	for _, text := range texts {
		if text == "" {
			continue
		}
		n := int32(0)
		for i := 0; i < len(text); i++ {
			n = a.child(n, text[i], true)
		}
		a.nodes[n].id = tokens[text]
	}
	return a
}

func (a *addedSet) child(n int32, b byte, create bool) int32 {
	for _, e := range a.nodes[n].edges {
		if e.b == b {
			return e.node
		}
	}
	if !create {
		return -1
	}
	a.nodes = append(a.nodes, trieNode{id: -1})
	c := int32(len(a.nodes) - 1)
	a.nodes[n].edges = append(a.nodes[n].edges, trieEdge{b, c})
	if n == 0 {
		a.first[b] = c
	}
	return c
}

// find returns the byte offset, length and id of the first added token in s;
// n is 0 when there is none. Tokens in skip are not matched unless special
// is set.
func (a *addedSet) find(s string, special bool, skip map[int]bool) (i, n, id int) {
	for i = 0; i < len(s); i++ {
		node := a.first[s[i]]
		for j := i; node >= 0; {
			if tid := a.nodes[node].id; tid >= 0 && (special || !skip[tid]) {
				n, id = j+1-i, tid
			}
			j++
			if j == len(s) {
				break
			}
			node = a.child(node, s[j], false)
		}
		if n > 0 {
			return i, n, id
		}
	}
	return 0, 0, 0
}

// replaceInvalid replaces each maximal ill-formed subsequence of s with
// U+FFFD, as the WHATWG UTF-8 decoder does (Unicode's "best practice", U+FFFD
// substitution of maximal subparts).
func replaceInvalid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || w > 1 {
			b.WriteString(s[i : i+w])
			i += w
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += maximalSubpart(s[i:])
	}
	return b.String()
}

// maximalSubpart returns the length of the longest prefix of s (which does
// not start with a valid character) that begins a well-formed sequence, or 1.
func maximalSubpart(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xbf)
	switch {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c >= 0xe1 && c <= 0xec, c == 0xee, c == 0xef:
		need = 2
	case c == 0xed:
		need, hi = 2, 0x9f
	case c == 0xf0:
		need, lo = 3, 0x90
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	case c == 0xf4:
		need, hi = 3, 0x8f
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(s); k++ {
		b := s[n]
		if k > 0 {
			lo, hi = 0x80, 0xbf
		}
		if b < lo || b > hi {
			break
		}
		n++
	}
	return n
}
