package tokens

import (
	"bufio"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// hfModels are the tokenizer.json files in testdata/vocab, by the name
// make.mjs gives them.
var hfModels = []string{"llama3", "qwen3", "gemma3", "deepseek_v3", "gpt_oss"}

type corpusRow struct {
	Text *string `json:"text"`
	Hex  string  `json:"hex"`
}

func (r corpusRow) text(t testing.TB) string {
	if r.Text != nil {
		return *r.Text
	}
	b, err := hex.DecodeString(r.Hex)
	require.NoError(t, err)
	return string(b)
}

func readJSONLines[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 16<<20)
	var out []T
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v))
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// testTokenizers loads each tokenizer once for all tests.
var testTokenizers = sync.OnceValues(func() (map[string]*Tokenizer, error) {
	out := map[string]*Tokenizer{}
	for _, enc := range Encodings() {
		t, err := OpenAI(enc)
		if err != nil {
			return nil, err
		}
		out[enc] = t
	}
	for _, name := range hfModels {
		t, err := LoadHFFile(os.DirFS("testdata/vocab"), name+".tokenizer.json.gz")
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
})

func tokenizer(t testing.TB, name string) *Tokenizer {
	t.Helper()
	all, err := testTokenizers()
	require.NoError(t, err)
	return all[name]
}

// TestCorpus checks every string of the corpus against the ids the
// reference tokenizers gave (testdata/ref/make.mjs): tiktoken's WASM build
// for OpenAI's encodings, the JavaScript port of HuggingFace tokenizers for
// the tokenizer.json files.
func TestCorpus(t *testing.T) {
	rows := readJSONLines[corpusRow](t, "testdata/corpus.jsonl.gz")
	want := readJSONLines[map[string][]int](t, "testdata/expected.jsonl.gz")
	require.Len(t, want, len(rows))
	require.GreaterOrEqual(t, len(rows), 2000)
	type variant struct {
		key    string
		encode func(*Tokenizer, string) []int
		base   string // the key whose ids stand when key is absent
	}
	var variants []variant
	for _, enc := range Encodings() {
		variants = append(variants,
			variant{enc, func(tk *Tokenizer, s string) []int { return tk.EncodeOrdinary(s) }, ""},
			variant{enc + "+special", func(tk *Tokenizer, s string) []int { return tk.Encode(s) }, ""})
	}
	for _, m := range hfModels {
		variants = append(variants,
			variant{m, func(tk *Tokenizer, s string) []int { return tk.Encode(s) }, ""},
			variant{m + "+post", func(tk *Tokenizer, s string) []int { return tk.EncodeWithSpecial(s) }, m})
	}
	for _, v := range variants {
		t.Run(v.key, func(t *testing.T) {
			name := v.key
			if i := len(name) - len("+special"); i > 0 && name[i:] == "+special" {
				name = name[:i]
			} else if i := len(name) - len("+post"); i > 0 && name[i:] == "+post" {
				name = name[:i]
			}
			tk := tokenizer(t, name)
			failed := 0
			for i, row := range rows {
				exp, ok := want[i][v.key]
				if !ok {
					exp, ok = want[i][v.base]
				}
				require.True(t, ok, "row %d has no %s", i, v.key)
				got := v.encode(tk, row.text(t))
				if len(exp) == 0 && len(got) == 0 {
					continue
				}
				if !equalInts(got, exp) {
					failed++
					if failed <= 5 {
						t.Errorf("row %d %q:\n got %v\nwant %v", i, row.text(t), got, exp)
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d strings differ", failed, len(rows))
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
