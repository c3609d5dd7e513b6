package tokens

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// LoadHFFile reads a HuggingFace tokenizer.json from fsys (os.DirFS, an
// embed.FS, ...). A name ending in ".gz" is read through gzip.
func LoadHFFile(fsys fs.FS, name string) (*Tokenizer, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("tokens: %s: %w", name, err)
		}
		r = z
	}
	return LoadHF(r, name)
}

// LoadHF reads a HuggingFace tokenizer.json. It knows the parts that the
// BPE tokenizers of current open models use: byte-level BPE (Llama 3,
// Qwen 2 and 3, DeepSeek V3, gpt-oss) and SentencePiece-style BPE with byte
// fallback (Gemma 3); NFC and Replace normalizers; Split pre-tokenizers
// with the patterns Pattern accepts or a literal string; ByteLevel
// pre-tokenizers without their own regex; TemplateProcessing and ByteLevel
// post-processors; added tokens without lstrip, rstrip or single_word.
// Anything else is an error, not an approximation.
func LoadHF(r io.Reader, name string) (*Tokenizer, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("tokens: %s: %w", name, err)
	}
	var doc hfDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("tokens: %s: %w", name, err)
	}
	t, err := doc.build(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: %s: %w", name, err)
	}
	return t, nil
}

type hfDoc struct {
	AddedTokens []struct {
		ID         int    `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
		Special    bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer    *hfPart `json:"normalizer"`
	PreTokenizer  *hfPart `json:"pre_tokenizer"`
	PostProcessor *hfPart `json:"post_processor"`
	Model         struct {
		Type                    string          `json:"type"`
		Dropout                 *float64        `json:"dropout"`
		UnkToken                *string         `json:"unk_token"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
		FuseUnk                 bool            `json:"fuse_unk"`
		ByteFallback            bool            `json:"byte_fallback"`
		IgnoreMerges            bool            `json:"ignore_merges"`
		Vocab                   map[string]int  `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
	} `json:"model"`
}

// hfPart is a normalizer, pre-tokenizer or post-processor.
type hfPart struct {
	Type          string    `json:"type"`
	Normalizers   []*hfPart `json:"normalizers"`
	Pretokenizers []*hfPart `json:"pretokenizers"`
	Processors    []*hfPart `json:"processors"`
	Pattern       struct {
		String *string `json:"String"`
		Regex  *string `json:"Regex"`
	} `json:"pattern"`
	Content        string `json:"content"`
	Behavior       string `json:"behavior"`
	Invert         bool   `json:"invert"`
	AddPrefixSpace bool   `json:"add_prefix_space"`
	UseRegex       bool   `json:"use_regex"`
	TrimOffsets    bool   `json:"trim_offsets"`
	Single         []struct {
		SpecialToken *struct {
			ID string `json:"id"`
		} `json:"SpecialToken"`
		Sequence *struct {
			ID string `json:"id"`
		} `json:"Sequence"`
	} `json:"single"`
	SpecialTokens map[string]struct {
		IDs []int `json:"ids"`
	} `json:"special_tokens"`
}

func (d *hfDoc) build(name string) (*Tokenizer, error) {
	m := &d.Model
	if m.Type != "BPE" {
		return nil, fmt.Errorf("model %q is not supported (only BPE)", m.Type)
	}
	if m.Dropout != nil && *m.Dropout != 0 {
		return nil, fmt.Errorf("BPE dropout is not supported")
	}
	if m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "" ||
		m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "" {
		return nil, fmt.Errorf("BPE continuing_subword_prefix and end_of_word_suffix are not supported")
	}
	t := &Tokenizer{name: name, special: map[int]bool{}}
	var err error
	if t.normalize, err = normalizer(d.Normalizer); err != nil {
		return nil, err
	}
	t.alignNorm, t.trimOffsets = alignedNormalizer(d.Normalizer), trimsOffsets(d.PostProcessor)
	byteLevel := false
	if t.split, byteLevel, err = preTokenizer(d.PreTokenizer); err != nil {
		return nil, err
	}
	if t.prefix, t.suffix, err = postProcessor(d.PostProcessor); err != nil {
		return nil, err
	}
	if t.split == nil {
		t.split = whole{}
	}
	model, size, err := hfModel(d, byteLevel)
	if err != nil {
		return nil, err
	}
	t.model = model
	added := map[string]int{}
	for _, a := range d.AddedTokens {
		if a.LStrip || a.RStrip || a.SingleWord {
			return nil, fmt.Errorf("added token %q: lstrip, rstrip and single_word are not supported", a.Content)
		}
		if a.Normalized && t.normalize != nil {
			return nil, fmt.Errorf("added token %q: normalized added tokens are not supported with a normalizer", a.Content)
		}
		added[a.Content] = a.ID
		if a.Special {
			t.special[a.ID] = true
		}
		size = max(size, a.ID+1)
	}
	t.added = newAddedSet(added)
	t.vocabSize = size
	return t, nil
}

func normalizer(p *hfPart) (func(string) string, error) {
	if p == nil {
		return nil, nil
	}
	switch p.Type {
	case "Sequence":
		var fs []func(string) string
		for _, q := range p.Normalizers {
			f, err := normalizer(q)
			if err != nil {
				return nil, err
			}
			if f != nil {
				fs = append(fs, f)
			}
		}
		switch len(fs) {
		case 0:
			return nil, nil
		case 1:
			return fs[0], nil
		}
		return func(s string) string {
			for _, f := range fs {
				s = f(s)
			}
			return s
		}, nil
	case "NFC":
		return nfc, nil
	case "Replace":
		if p.Pattern.String == nil {
			return nil, fmt.Errorf("normalizer Replace with a regex is not supported")
		}
		from, to := *p.Pattern.String, p.Content
		return func(s string) string { return strings.ReplaceAll(s, from, to) }, nil
	}
	return nil, fmt.Errorf("normalizer %q is not supported", p.Type)
}

// preTokenizer returns the splitter and whether the model is byte-level.
func preTokenizer(p *hfPart) (splitter, bool, error) {
	if p == nil {
		return nil, false, nil
	}
	switch p.Type {
	case "Sequence":
		var seq sequence
		byteLevel := false
		for _, q := range p.Pretokenizers {
			s, bl, err := preTokenizer(q)
			if err != nil {
				return nil, false, err
			}
			byteLevel = byteLevel || bl
			if s != nil {
				seq = append(seq, s)
			}
		}
		if len(seq) == 1 {
			return seq[0], byteLevel, nil
		}
		return seq, byteLevel, nil
	case "ByteLevel":
		if p.AddPrefixSpace || p.UseRegex {
			return nil, false, fmt.Errorf("pre-tokenizer ByteLevel with add_prefix_space or use_regex is not supported")
		}
		return nil, true, nil
	case "Split":
		if p.Invert {
			return nil, false, fmt.Errorf("inverted Split is not supported")
		}
		switch {
		case p.Pattern.Regex != nil && p.Behavior == "Isolated":
			m, ok := patterns[*p.Pattern.Regex]
			if !ok {
				return nil, false, fmt.Errorf("pre-tokenizer Split pattern %q is not supported", *p.Pattern.Regex)
			}
			return isolated{m}, false, nil
		case p.Pattern.String != nil && *p.Pattern.String != "" && p.Behavior == "MergedWithPrevious":
			return mergedWithPrevious(*p.Pattern.String), false, nil
		}
		return nil, false, fmt.Errorf("pre-tokenizer Split with behavior %q is not supported", p.Behavior)
	}
	return nil, false, fmt.Errorf("pre-tokenizer %q is not supported", p.Type)
}

func postProcessor(p *hfPart) (prefix, suffix []int, err error) {
	if p == nil {
		return nil, nil, nil
	}
	switch p.Type {
	case "ByteLevel":
		return nil, nil, nil // adjusts offsets only
	case "Sequence":
		for _, q := range p.Processors {
			pre, suf, err := postProcessor(q)
			if err != nil {
				return nil, nil, err
			}
			prefix, suffix = append(prefix, pre...), append(suf, suffix...)
		}
		return prefix, suffix, nil
	case "TemplateProcessing":
		seen := false
		for _, item := range p.Single {
			switch {
			case item.Sequence != nil:
				seen = true
			case item.SpecialToken != nil:
				st, ok := p.SpecialTokens[item.SpecialToken.ID]
				if !ok {
					return nil, nil, fmt.Errorf("post-processor TemplateProcessing: no special token %q", item.SpecialToken.ID)
				}
				if seen {
					suffix = append(suffix, st.IDs...)
				} else {
					prefix = append(prefix, st.IDs...)
				}
			}
		}
		return prefix, suffix, nil
	}
	return nil, nil, fmt.Errorf("post-processor %q is not supported", p.Type)
}

// byteDecoder maps the characters of GPT-2's byte-level alphabet back to
// the bytes they stand for.
var byteDecoder = func() map[rune]byte {
	d := map[rune]byte{}
	n := 0
	for b := 0; b < 256; b++ {
		if b >= '!' && b <= '~' || b >= 0xa1 && b <= 0xac || b >= 0xae {
			d[rune(b)] = byte(b)
		} else {
			d[rune(256+n)] = byte(b)
			n++
		}
	}
	return d
}()

// unByteLevel returns the bytes a byte-level token stands for.
func unByteLevel(tok string) (string, bool) {
	var b strings.Builder
	for _, r := range tok {
		c, ok := byteDecoder[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

func hfModel(d *hfDoc, byteLevel bool) (*bpe, int, error) {
	m := &d.Model
	model := &bpe{
		vocab:      make(map[string]int32, len(m.Vocab)),
		pairs:      map[uint64]merge{},
		byteLevel:  byteLevel,
		wholeFirst: m.IgnoreMerges,
		unk:        -1,
		fuseUnk:    m.FuseUnk,
	}
	for i := range model.byteIDs {
		model.byteIDs[i] = -1
	}
	size := 0
	ids := make(map[string]int32, len(m.Vocab)) // by the token as written
	for tok, id := range m.Vocab {
		ids[tok] = int32(id)
		size = max(size, id+1)
		key := tok
		if byteLevel {
			raw, ok := unByteLevel(tok)
			if !ok {
				continue // a token no byte sequence makes
			}
			key = raw
		}
		model.vocab[key] = int32(id)
	}
	if err := model.singles(ids, m.ByteFallback); err != nil {
		return nil, 0, err
	}
	if m.UnkToken != nil {
		if id, ok := hfUnkID(d, ids, *m.UnkToken); ok {
			model.unk = id
		}
	}
	if err := model.addMerges(m.Merges, ids); err != nil {
		return nil, 0, err
	}
	return model, size, nil
}

// singles fills the ids of single bytes (a byte-level vocabulary must
// have a token for each; otherwise byteFallback's <0xXX> tokens) and,
// for a vocabulary that is not byte-level, of single characters; ids are
// the vocabulary's tokens as written.
func (m *bpe) singles(ids map[string]int32, byteFallback bool) error {
	if m.byteLevel {
		for b := range 256 {
			id, ok := m.vocab[string([]byte{byte(b)})]
			if !ok {
				return fmt.Errorf("byte-level vocabulary has no token for byte %#x", b)
			}
			m.byteIDs[b] = id
		}
		return nil
	}
	m.chars = map[rune]int32{}
	for tok, id := range ids {
		if r, w := utf8.DecodeRuneInString(tok); w == len(tok) && (r != utf8.RuneError || w > 1) {
			m.chars[r] = id
		}
	}
	if byteFallback {
		for b := range 256 {
			if id, ok := ids[fmt.Sprintf("<0x%02X>", b)]; ok {
				m.byteIDs[b] = id
			}
		}
	}
	return nil
}

// hfUnkID is the id of the unknown token unk: in the vocabulary, else
// the last added token with its text.
func hfUnkID(d *hfDoc, ids map[string]int32, unk string) (int32, bool) {
	id, ok := ids[unk]
	if !ok {
		for _, a := range d.AddedTokens {
			if a.Content == unk {
				id, ok = int32(a.ID), true
			}
		}
	}
	return id, ok
}

// addMerges reads the merges and adds each pair's rank and result, the
// first of a pair listed twice kept; every token a merge names must be
// in the vocabulary (ids).
func (m *bpe) addMerges(raw json.RawMessage, ids map[string]int32) error {
	merges, err := parseMerges(raw)
	if err != nil {
		return err
	}
	for rank, mg := range merges {
		a, okA := ids[mg[0]]
		b, okB := ids[mg[1]]
		c, okC := ids[mg[0]+mg[1]]
		if !okA || !okB || !okC {
			return fmt.Errorf("merge %d (%q %q) names a token not in the vocabulary", rank, mg[0], mg[1])
		}
		k := pairKey(a, b)
		if _, dup := m.pairs[k]; !dup {
			m.pairs[k] = merge{rank: uint32(rank), id: c}
		}
	}
	return nil
}

// parseMerges reads merges written either as "a b" or as ["a", "b"].
func parseMerges(raw json.RawMessage) ([][2]string, error) {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil, nil
	}
	trimmed = bytes.TrimLeft(trimmed[1:], " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] == ']' {
		return nil, nil
	}
	if trimmed[0] == '"' {
		var l []string
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, fmt.Errorf("merges: %w", err)
		}
		out := make([][2]string, len(l))
		for i, s := range l {
			a, b, ok := strings.Cut(s, " ")
			if !ok {
				return nil, fmt.Errorf("merge %d: %q has no space", i, s)
			}
			out[i] = [2]string{a, b}
		}
		return out, nil
	}
	var out [][2]string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("merges: %w", err)
	}
	return out, nil
}

// nfc is Unicode's NFC. golang.org/x/text follows the Stream-Safe Text
// Format and puts U+034F COMBINING GRAPHEME JOINER after every 30
// combining marks in a row; String.prototype.normalize and the Rust
// tokenizers do not, so the joiners it adds are taken out again. (Canonical
// ordering within such a run of more than 30 marks can still differ.)
func nfc(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	out := norm.NFC.String(s)
	const cgj = "\u034f"
	if strings.Contains(out, cgj) && !strings.Contains(s, cgj) {
		out = strings.ReplaceAll(out, cgj, "")
	}
	return out
}
