package tokens

import (
	"container/heap"
	"math"
	"unicode/utf8"
)

// bpe is a byte-pair-encoding model. Two kinds of vocabulary share it:
//
//   - tiktoken's: the rank of a token is its id, and of two adjacent parts
//     the pair whose concatenation has the lowest rank merges first;
//   - tokenizer.json's: merges are listed in order, and the pair listed
//     first merges first into the token its concatenation names.
//
// Both kinds merge the leftmost of equal pairs first. A byte-level model
// starts from the bytes of a piece; a character-level one (SentencePiece
// style) from its characters, with byte fallback for characters it lacks.
type bpe struct {
	// vocab maps a token (raw bytes for a byte-level model) to its id.
	vocab map[string]int32
	// tiktoken: the rank of a pair is the id of its concatenation.
	tiktoken bool
	// pairs maps two ids (left<<32 | right) to the merge's rank and result.
	pairs map[uint64]merge
	// byteLevel: the initial parts are the bytes of the piece.
	byteLevel bool
	// byteIDs is the id of each single byte (byte-level), or of the byte
	// fallback token <0xXX> (-1 when there is none).
	byteIDs [256]int32
	// chars is the id of each one-character token (character-level).
	chars map[rune]int32
	// wholeFirst: a piece that is a token is that token (tiktoken always;
	// tokenizer.json with ignore_merges).
	wholeFirst bool
	// unk is the id of the unknown token, or -1; fuseUnk merges a run of
	// unknown characters into one.
	unk     int32
	fuseUnk bool
}

type merge struct {
	rank uint32
	id   int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// part is one symbol of a piece during merging: its id, and for tiktoken
// its start byte (the end is the next part's start).
type part struct {
	id    int32
	start int32
	rank  uint32 // the rank of the pair this part starts
}

const noRank = math.MaxUint32

// encode appends the ids of piece to out.
func (m *bpe) encode(piece string, out []int) []int {
	if m.wholeFirst {
		if id, ok := m.vocab[piece]; ok {
			return append(out, int(id))
		}
	}
	var buf [64]part
	parts := buf[:0]
	if m.byteLevel {
		if len(piece) == 1 {
			return append(out, int(m.byteIDs[piece[0]]))
		}
		for i := 0; i < len(piece); i++ {
			parts = append(parts, part{id: m.byteIDs[piece[i]], start: int32(i)})
		}
	} else {
		parts = m.charParts(piece, parts)
	}
	parts = append(parts, part{id: -1, start: int32(len(piece))}) // sentinel
	if len(parts) > 65 {
		return m.mergeLong(piece, parts, out)
	}
	return m.mergeShort(piece, parts, out)
}

// charParts returns the initial parts of a character-level piece.
func (m *bpe) charParts(piece string, parts []part) []part {
	for i := 0; i < len(piece); {
		r, w := utf8.DecodeRuneInString(piece[i:])
		if id, ok := m.chars[r]; ok {
			parts = append(parts, part{id: id, start: int32(i)})
			i += w
			continue
		}
		fallback := m.byteIDs[0] >= 0 || m.byteIDs[0xff] >= 0
		if fallback {
			for k := 0; k < w; k++ {
				if m.byteIDs[piece[i+k]] < 0 {
					fallback = false
				}
			}
		}
		if fallback {
			for k := 0; k < w; k++ {
				parts = append(parts, part{id: m.byteIDs[piece[i+k]], start: int32(i + k)})
			}
		} else if !(m.fuseUnk && len(parts) > 0 && parts[len(parts)-1].id == m.unk) {
			parts = append(parts, part{id: m.unk, start: int32(i)})
		}
		i += w
	}
	return parts
}

// pairRank returns the rank and result of merging parts[i] and parts[j],
// where parts[k] is the part after parts[j].
func (m *bpe) pairRank(piece string, a, b part, end int32) merge {
	if a.id < 0 || b.id < 0 {
		return merge{rank: noRank, id: -1}
	}
	if m.tiktoken {
		if id, ok := m.vocab[piece[a.start:end]]; ok {
			return merge{rank: uint32(id), id: id}
		}
		return merge{rank: noRank, id: -1}
	}
	if mg, ok := m.pairs[pairKey(a.id, b.id)]; ok {
		return mg
	}
	return merge{rank: noRank, id: -1}
}

// mergeShort merges by scanning all pairs for the lowest rank, as tiktoken
// does; quick for the short pieces most text is cut into.
func (m *bpe) mergeShort(piece string, parts []part, out []int) []int {
	ids := make([]int32, len(parts))
	for i := 0; i+2 < len(parts); i++ {
		mg := m.pairRank(piece, parts[i], parts[i+1], parts[i+2].start)
		parts[i].rank, ids[i] = mg.rank, mg.id
	}
	if len(parts) >= 2 {
		parts[len(parts)-2].rank = noRank
	}
	for {
		best, bi := uint32(noRank), -1
		for i := 0; i+2 < len(parts); i++ {
			if parts[i].rank < best {
				best, bi = parts[i].rank, i
			}
		}
		if bi < 0 {
			break
		}
		parts[bi].id = ids[bi]
		parts = append(parts[:bi+1], parts[bi+2:]...)
		ids = append(ids[:bi+1], ids[bi+2:]...)
		if bi+2 < len(parts) {
			mg := m.pairRank(piece, parts[bi], parts[bi+1], parts[bi+2].start)
			parts[bi].rank, ids[bi] = mg.rank, mg.id
		} else {
			parts[bi].rank = noRank
		}
		if bi > 0 {
			mg := m.pairRank(piece, parts[bi-1], parts[bi], parts[bi+1].start)
			parts[bi-1].rank, ids[bi-1] = mg.rank, mg.id
		}
	}
	for _, p := range parts[:len(parts)-1] {
		out = append(out, int(p.id))
	}
	return out
}

// node is a part in the linked list mergeLong works on.
type node struct {
	id         int32
	start, end int32
	prev, next int32 // -1 at the ends
	dead       bool
}

type candidate struct {
	rank        uint32
	pos         int32 // the left node
	left, right int32 // their ids when the candidate was made
	id          int32
}

type candidates []candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].pos < h[j].pos
}
func (h candidates) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candidates) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// mergeLong merges with a priority queue, in O(n log n) for long pieces
// (a SentencePiece-style model encodes a whole text as one piece).
func (m *bpe) mergeLong(piece string, parts []part, out []int) []int {
	n := len(parts) - 1
	nodes := make([]node, n)
	for i := range n {
		nodes[i] = node{id: parts[i].id, start: parts[i].start, end: parts[i+1].start, prev: int32(i - 1), next: int32(i + 1)}
	}
	nodes[n-1].next = -1
	h := make(candidates, 0, n)
	try := func(i int32) {
		a := &nodes[i]
		if a.next < 0 {
			return
		}
		b := &nodes[a.next]
		mg := m.pairRank(piece, part{id: a.id, start: a.start}, part{id: b.id, start: b.start}, b.end)
		if mg.rank != noRank {
			h = append(h, candidate{rank: mg.rank, pos: i, left: a.id, right: b.id, id: mg.id})
		}
	}
	for i := range n - 1 {
		try(int32(i))
	}
	heap.Init(&h)
	for h.Len() > 0 {
		c := heap.Pop(&h).(candidate)
		a := &nodes[c.pos]
		if a.dead || a.id != c.left || a.next < 0 || nodes[a.next].id != c.right {
			continue
		}
		b := &nodes[a.next]
		a.id, a.end, a.next = c.id, b.end, b.next
		b.dead = true
		if b.next >= 0 {
			nodes[b.next].prev = c.pos
		}
		if a.prev >= 0 {
			l := len(h)
			try(a.prev)
			if len(h) > l {
				heap.Fix(&h, len(h)-1)
			}
		}
		l := len(h)
		try(c.pos)
		if len(h) > l {
			heap.Fix(&h, len(h)-1)
		}
	}
	for i := int32(0); i >= 0; i = nodes[i].next {
		out = append(out, int(nodes[i].id))
	}
	return out
}
