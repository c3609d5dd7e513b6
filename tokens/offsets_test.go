package tokens

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncodeOffsetsCorpus checks EncodeOffsets on every string of the
// corpus with every tokenizer: the ids are Encode's, and the offsets lie
// in order on character boundaries, cover every character, and hold what
// the token stands for.
func TestEncodeOffsetsCorpus(t *testing.T) {
	rows := readJSONLines[corpusRow](t, "testdata/corpus.jsonl.gz")
	for _, name := range append(Encodings(), hfModels...) {
		t.Run(name, func(t *testing.T) {
			tk := tokenizer(t, name)
			assert.False(t, tk.TrimsOffsets())
			raw := map[int]string{}
			if tk.model.byteLevel && !tk.model.tiktoken {
				for k, v := range tk.model.vocab {
					raw[int(v)] = k
				}
			}
			for _, row := range rows {
				text := row.text(t)
				ids, offs := tk.EncodeOffsets(text)
				if !slices.Equal(tk.Encode(text), ids) || len(offs) != len(ids) {
					t.Fatalf("%q: ids %v, %d offsets; Encode gives %v", text, ids, len(offs), tk.Encode(text))
				}
				if msg := checkOffsets(tk, raw, text, offs, ids); msg != "" {
					t.Errorf("%q: %s (offsets %v)", text, msg, offs)
				}
			}
		})
	}
}

// checkOffsets says what is wrong with the offsets of text, or "".
func checkOffsets(tk *Tokenizer, raw map[int]string, text string, offs []Offset, ids []int) string {
	valid := utf8.ValidString(text)
	boundary := func(i int) bool { return i == len(text) || utf8.RuneStart(text[i]) }
	contains := len(raw) > 0 && valid && (tk.normalize == nil || tk.normalize(text) == text)
	covered := 0
	for k, o := range offs {
		switch {
		case o.Start < 0 || o.Start > o.End || o.End > len(text):
			return fmt.Sprintf("token %d: %v out of the text", k, o)
		case valid && !(boundary(o.Start) && boundary(o.End)):
			return fmt.Sprintf("token %d: %v not on characters", k, o)
		case o.Start > covered:
			// a token starts where the last ended, or inside the character
			// it ended with (byte-level BPE splitting one)
			return fmt.Sprintf("token %d: %v leaves a gap", k, o)
		case k > 0 && o.Start < offs[k-1].Start:
			return fmt.Sprintf("token %d: %v out of order", k, o)
		}
		covered = max(covered, o.End)
		if r, ok := raw[ids[k]]; contains && ok && !strings.Contains(text[o.Start:o.End], r) {
			return fmt.Sprintf("token %d: %v does not hold %q", k, o, r)
		}
	}
	if covered != len(text) {
		return "the tokens do not reach the end"
	}
	return ""
}

func TestEncodeOffsets(t *testing.T) {
	tests := []struct {
		name, model, text string
		want              []Offset
	}{
		// "é" is one token in Llama 3; "😀" two bytes-level tokens: both span it
		{name: "split character", model: "llama3", text: "a😀", want: []Offset{{0, 1}, {1, 5}, {1, 5}}},
		{name: "special token", model: "llama3", text: "x<|eot_id|>y", want: []Offset{{0, 1}, {1, 11}, {11, 12}}},
		// Gemma's "▁" stands for the space it replaced
		{name: "replaced space", model: "gemma3", text: "a b", want: []Offset{{0, 1}, {1, 3}}},
		// invalid UTF-8 read as U+FFFD spans the bytes it replaced
		{name: "invalid", model: "llama3", text: "a\xff\xfeb", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk := tokenizer(t, tc.model)
			ids, offs := tk.EncodeOffsets(tc.text)
			require.Equal(t, tk.Encode(tc.text), ids)
			if tc.want != nil {
				assert.Equal(t, tc.want, offs)
			}
			var b strings.Builder
			for _, o := range offs {
				b.WriteString(tc.text[o.Start:o.End])
				b.WriteByte('|')
			}
			t.Logf("%v %v %s", ids, offs, b.String())
		})
	}
}
