package tokens

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Offset is the stretch of a text a token stands for, in bytes: [Start, End).
type Offset struct {
	Start, End int
}

// EncodeOffsets is Encode with the offsets of each token in text: what
// HuggingFace tokenizers' offsets mapping (return_offsets_mapping) gives,
// in bytes where it counts characters. A token spans whole characters: one
// that holds only some of a character's bytes (byte-level BPE splits a
// character it has no token for) spans the whole character, as does every
// other token holding part of it. A normalized token spans the characters
// it was normalized from (Gemma's "▁" spans the space it replaced). An
// added or special token spans its text. Invalid UTF-8, which the
// tokenizer reads as U+FFFD, is spanned where it stands in text.
//
// The offsets are before any post-processor's trimming (a ByteLevel
// post-processor's trim_offsets, which the tokenizers shipped for tests
// here do not set); TrimsOffsets reports whether the tokenizer.json asks
// for it.
func (t *Tokenizer) EncodeOffsets(text string) ([]int, []Offset) {
	var back []int // byte of the text read -> byte of text, when they differ
	if !utf8.ValidString(text) {
		text, back = replaceInvalidMap(text)
	}
	lens := t.tokenLens()
	ids := make([]int, 0, len(text)/3+1)
	offs := make([]Offset, 0, cap(ids))
	plain := func(seg string, base int) {
		if seg == "" {
			return
		}
		n, lo, hi := seg, []int(nil), []int(nil)
		if t.normalize != nil && t.normalize(seg) != seg {
			if t.alignNorm == nil {
				panic(fmt.Sprintf("tokens: %s: no offsets for this normalizer", t.name))
			}
			n, lo, hi = t.alignNorm(seg)
		}
		pos := 0
		t.split.split(n, func(piece string) {
			first := len(ids)
			ids = t.model.encode(piece, ids)
			p := pos
			for k := first; k < len(ids); k++ {
				w := 0
				if id := ids[k]; id >= 0 && id < len(lens) {
					w = int(lens[id])
				}
				if w == 0 { // the unknown token: one character, or what is left
					if k == len(ids)-1 {
						w = pos + len(piece) - p
					} else {
						_, w = utf8.DecodeRuneInString(n[p:])
					}
				}
				e := min(p+w, pos+len(piece))
				var o Offset
				if lo == nil {
					o = Offset{charStart(seg, p), charEnd(seg, e)}
				} else if e > p {
					o = Offset{lo[p], hi[e-1]}
				} else {
					o = Offset{lo[min(p, len(lo)-1)], lo[min(p, len(lo)-1)]}
				}
				offs = append(offs, Offset{base + o.Start, base + o.End})
				p = e
			}
			pos += len(piece)
		})
	}
	done := 0
	for rest := text; len(rest) > 0; {
		var i, n, id int
		if t.added != nil {
			i, n, id = t.added.find(rest, true, t.special)
		}
		if n == 0 {
			plain(rest, done)
			break
		}
		plain(rest[:i], done)
		ids = append(ids, id)
		offs = append(offs, Offset{done + i, done + i + n})
		rest = rest[i+n:]
		done += i + n
	}
	if back != nil {
		for k := range offs {
			offs[k] = Offset{back[offs[k].Start], back[offs[k].End]}
		}
	}
	return ids, offs
}

// TrimsOffsets reports whether the tokenizer.json's post-processor trims
// white space off the offsets (ByteLevel's trim_offsets), which
// EncodeOffsets does not do.
func (t *Tokenizer) TrimsOffsets() bool { return t.trimOffsets }

// charStart returns the start of the character holding byte i of s
// (len(s) for i = len(s)).
func charStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// charEnd returns the end of the character holding byte e-1 of s.
func charEnd(s string, e int) int {
	for e > 0 && e < len(s) && !utf8.RuneStart(s[e]) {
		e++
	}
	return e
}

// tokenLens returns, by id, how many bytes of the normalized text each
// token of the model stands for; 0 for the unknown token and ids the
// model does not give (added tokens are spanned apart).
func (t *Tokenizer) tokenLens() []int32 {
	t.lensOnce.Do(func() {
		m := t.model
		lens := make([]int32, t.vocabSize)
		for tok, id := range m.vocab {
			if int(id) < len(lens) {
				lens[id] = int32(len(tok))
			}
		}
		for _, id := range m.byteIDs {
			if id >= 0 && int(id) < len(lens) {
				lens[id] = 1 // a byte, or SentencePiece's byte fallback <0xXX>
			}
		}
		if m.unk >= 0 && int(m.unk) < len(lens) {
			lens[m.unk] = 0
		}
		t.lens = lens
	})
	return t.lens
}

// replaceInvalidMap is replaceInvalid with, for each byte of its result
// and its end, the byte of s it stands for (a U+FFFD's three bytes the
// start of the sequence it replaced, so the byte after it maps past it).
func replaceInvalidMap(s string) (string, []int) {
	var b strings.Builder
	back := make([]int, 0, len(s)+9)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || w > 1 {
			b.WriteString(s[i : i+w])
			for k := range w {
				back = append(back, i+k)
			}
			i += w
			continue
		}
		b.WriteRune(utf8.RuneError)
		back = append(back, i, i, i)
		i += maximalSubpart(s[i:])
	}
	return b.String(), append(back, len(s))
}

// alignedNormalizer is normalizer with, for each byte of what it writes,
// the [lo, hi) bytes of the character of its input that byte comes from;
// nil when the normalizer has no such form here.
func alignedNormalizer(p *hfPart) func(string) (string, []int, []int) {
	if p == nil {
		return nil
	}
	switch p.Type {
	case "Sequence":
		var fs []func(string) (string, []int, []int)
		for _, q := range p.Normalizers {
			f := alignedNormalizer(q)
			if f == nil {
				return nil
			}
			fs = append(fs, f)
		}
		return func(s string) (string, []int, []int) {
			n, lo, hi := identityAlign(s)
			for _, f := range fs {
				n2, lo2, hi2 := f(n)
				for k := range lo2 {
					lo2[k], hi2[k] = lo[lo2[k]], hi[hi2[k]-1]
				}
				n, lo, hi = n2, lo2, hi2
			}
			return n, lo, hi
		}
	case "NFC":
		return nfcAlign
	case "Replace":
		if p.Pattern.String == nil || *p.Pattern.String == "" {
			return nil
		}
		from, to := *p.Pattern.String, p.Content
		return func(s string) (string, []int, []int) {
			var b strings.Builder
			var lo, hi []int
			for i := 0; i < len(s); {
				if strings.HasPrefix(s[i:], from) {
					b.WriteString(to)
					for range len(to) {
						lo, hi = append(lo, i), append(hi, i+len(from))
					}
					i += len(from)
					continue
				}
				_, w := utf8.DecodeRuneInString(s[i:])
				b.WriteString(s[i : i+w])
				for range w {
					lo, hi = append(lo, i), append(hi, i+w)
				}
				i += w
			}
			return b.String(), lo, hi
		}
	}
	return nil
}

// identityAlign aligns each byte of s with its character.
func identityAlign(s string) (string, []int, []int) {
	lo, hi := make([]int, len(s)), make([]int, len(s))
	for i := 0; i < len(s); {
		_, w := utf8.DecodeRuneInString(s[i:])
		for k := range w {
			lo[i+k], hi[i+k] = i, i+w
		}
		i += w
	}
	return s, lo, hi
}

// nfcAlign is nfc aligned by normalization segment (a starter and the
// marks that follow it): each byte written spans the segment it came
// from.
func nfcAlign(s string) (string, []int, []int) {
	if norm.NFC.IsNormalString(s) {
		return identityAlign(s)
	}
	var it norm.Iter
	it.InitString(norm.NFC, s)
	var b []byte
	var lo, hi []int
	const cgj = "\u034f"
	dropCGJ := !strings.Contains(s, cgj)
	for !it.Done() {
		start := it.Pos()
		seg := it.Next()
		end := it.Pos()
		if dropCGJ {
			seg = []byte(strings.ReplaceAll(string(seg), cgj, ""))
		}
		b = append(b, seg...)
		for range seg {
			lo, hi = append(lo, start), append(hi, end)
		}
	}
	return string(b), lo, hi
}

// trimsOffsets reports whether a post-processor trims offsets.
func trimsOffsets(p *hfPart) bool {
	if p == nil {
		return false
	}
	if p.Type == "ByteLevel" && p.TrimOffsets {
		return true
	}
	for _, q := range p.Processors {
		if trimsOffsets(q) {
			return true
		}
	}
	return false
}
