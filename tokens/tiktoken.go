package tokens

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The split patterns of OpenAI's encodings, as tiktoken writes them. Only
// these (and those of the tokenizer.json files LoadHF knows) can be
// loaded: Go's regexp has no look-ahead, so each is matched by hand.
const (
	PatternO200k  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	PatternCL100k = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// PatternQwen is cl100k's with one digit a piece (Qwen 2 and 3).
	PatternQwen = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// DeepSeek V3's three split patterns, applied in turn.
const (
	patternDeepSeekDigits = `\p{N}{1,3}`
	patternDeepSeekCJK    = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"
	patternDeepSeekWords  = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
)

// patterns are the regular expressions written by hand, by their text.
var patterns = map[string]matcher{
	PatternO200k:          o200k,
	PatternCL100k:         cl100k(3),
	PatternQwen:           cl100k(1),
	patternDeepSeekDigits: deepseekDigits,
	patternDeepSeekCJK:    deepseekCJK,
	patternDeepSeekWords:  deepseekWords,
}

// Pattern reports whether the split pattern is one this package matches.
func Pattern(pattern string) bool {
	_, ok := patterns[pattern]
	return ok
}

//go:embed vocab/*.tiktoken.gz
var openaiVocab embed.FS

// encoding is one of OpenAI's encodings this package ships.
type encoding struct {
	pattern  string
	specials map[string]int
}

var encodings = map[string]encoding{
	"o200k_base": {PatternO200k, map[string]int{
		"<|endoftext|>":   199999,
		"<|endofprompt|>": 200018,
	}},
	"cl100k_base": {PatternCL100k, map[string]int{
		"<|endoftext|>":   100257,
		"<|fim_prefix|>":  100258,
		"<|fim_middle|>":  100259,
		"<|fim_suffix|>":  100260,
		"<|endofprompt|>": 100276,
	}},
}

// Encodings lists the names OpenAI accepts.
func Encodings() []string { return []string{"o200k_base", "cl100k_base"} }

// OpenAI returns one of OpenAI's encodings, "o200k_base" (GPT-4o, GPT-4.1,
// o-series, GPT-5) or "cl100k_base" (GPT-4, GPT-3.5), from the vocabulary
// this package embeds. Loading takes a fraction of a second; keep the
// tokenizer.
func OpenAI(name string) (*Tokenizer, error) {
	enc, ok := encodings[name]
	if !ok {
		return nil, fmt.Errorf("tokens: unknown encoding %q (known: %s)", name, strings.Join(Encodings(), ", "))
	}
	f, err := openaiVocab.Open("vocab/" + name + ".tiktoken.gz")
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("tokens: %s: %w", name, err)
	}
	return LoadTiktoken(z, name, enc.pattern, enc.specials)
}

// LoadTiktoken reads a vocabulary in tiktoken's format (a line of base64
// token and rank for each token, as in o200k_base.tiktoken) and makes a
// tokenizer that splits text with pattern (one Pattern accepts) and knows
// the given special tokens.
func LoadTiktoken(r io.Reader, name, pattern string, specials map[string]int) (*Tokenizer, error) {
	m, ok := patterns[pattern]
	if !ok {
		return nil, fmt.Errorf("tokens: %s: unsupported split pattern %q", name, pattern)
	}
	model := &bpe{vocab: map[string]int32{}, tiktoken: true, byteLevel: true, wholeFirst: true, unk: -1}
	for i := range model.byteIDs {
		model.byteIDs[i] = -1
	}
	size := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		sp := bytes.IndexByte(text, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("tokens: %s: line %d: want \"token rank\"", name, line)
		}
		tok := make([]byte, base64.StdEncoding.DecodedLen(sp))
		n, err := base64.StdEncoding.Decode(tok, text[:sp])
		if err != nil {
			return nil, fmt.Errorf("tokens: %s: line %d: %w", name, line, err)
		}
		rank, err := strconv.Atoi(string(text[sp+1:]))
		if err != nil || rank < 0 || rank >= 1<<31-1 {
			return nil, fmt.Errorf("tokens: %s: line %d: bad rank", name, line)
		}
		model.vocab[string(tok[:n])] = int32(rank)
		if n == 1 {
			model.byteIDs[tok[0]] = int32(rank)
		}
		size = max(size, rank+1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tokens: %s: %w", name, err)
	}
	for b, id := range model.byteIDs {
		if id < 0 {
			return nil, fmt.Errorf("tokens: %s: no token for byte %#x", name, b)
		}
	}
	t := &Tokenizer{name: name, split: isolated{m}, model: model, special: map[int]bool{}}
	for _, id := range specials {
		t.special[id] = true
		size = max(size, id+1)
	}
	t.added = newAddedSet(specials)
	t.vocabSize = size
	return t, nil
}
