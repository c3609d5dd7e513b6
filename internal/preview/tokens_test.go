package preview

import (
	"net/url"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tokcount "github.com/rolemark/rolemark/tokens"
)

// TestTokenCounts checks the counts the page shows. The figures are
// tiktoken's (npm tiktoken 1.0.22, encode(s, "all")) and
// @huggingface/tokenizers' (0.2.0, add_special_tokens: false) for the same
// strings: greet.hbs's defaults give the messages "system: Be kind." (3 +
// 1 + 3 = 7 with o200k_base) and "user: Hi Ada x2" (3 + 1 + 4 = 8), 18
// with the reply's 3; its chatml prompt string is 42 tokens of o200k_base
// (<|im_start|> is not one of o200k_base's special tokens), its llama3
// one 69, or 22 of Llama 3's own tokenizer.
func TestTokenCounts(t *testing.T) {
	o200k, err := tokcount.OpenAI("o200k_base")
	require.NoError(t, err)
	cl100k, err := tokcount.OpenAI("cl100k_base")
	require.NoError(t, err)
	llama3, err := tokcount.LoadHFFile(os.DirFS("../../tokens/testdata/vocab"), "llama3.tokenizer.json.gz")
	require.NoError(t, err)
	img := "greet.hbs?go=1&v.name=Ada&v.n=2&history=" + url.QueryEscape(`[{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]`)

	tests := []struct {
		name    string
		opts    []Option
		target  string
		want    []string
		notWant []string
	}{
		{name: "o200k_base counts each message, the messages and the prompt string",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/greet.hbs",
			want: []string{
				`<span class="role">system</span> <span class="ntok" title="tokens of this message, the 3 OpenAI adds to each included">7 tokens</span>`,
				`<span class="role">user</span> <span class="ntok" title="tokens of this message, the 3 OpenAI adds to each included">8 tokens</span>`,
				`<div class="pane" id="pane-chat">
<p class="tokens"><b class="ntok">18</b> tokens (o200k_base): the messages as OpenAI counts them, 3 a message and 3 to prime the reply.</p>`,
				`<div class="pane" id="pane-openai"><p class="tokens"><b class="ntok">18</b> tokens (o200k_base)`,
				`<p class="tokens"><b class="ntok">42</b> tokens (o200k_base): this prompt string, the special tokens o200k_base knows read as such.</p>`,
			}},
		{name: "the prompt string of the chosen format",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&format=llama3",
			want: []string{`<b class="ntok">18</b> tokens (o200k_base): the messages`, `<b class="ntok">69</b> tokens (o200k_base): this prompt string`}},
		{name: "cl100k_base",
			opts: []Option{Tokenizer(cl100k, true)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&format=llama3",
			want: []string{`<b class="ntok">18</b> tokens (cl100k_base): the messages`, `<b class="ntok">69</b> tokens (cl100k_base): this prompt string`}},
		{name: "an image is not counted, and the page says so",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/" + img,
			// "see" is one token: the history message is 3 + 1 + 1.
			want: []string{`5 tokens</span>`, `<b class="ntok">23</b> tokens (o200k_base): the messages as OpenAI counts them, 3 a message and 3 to prime the reply; images, audio and files are not counted.</p>`}},
		{name: "a tokenizer.json counts the prompt string only",
			opts: []Option{Tokenizer(llama3, false)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&format=llama3",
			want:    []string{`<p class="tokens"><b class="ntok">22</b> tokens (llama3.tokenizer.json.gz): this prompt string`},
			notWant: []string{`the messages as OpenAI counts them`, `tokens</span>`}},
		{name: "two formats side by side: their prompt strings",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bformat=llama3",
			want: []string{`<p class="tokens" id="compare-tokens">A <b class="ntok">42</b> tokens, B <b class="ntok">69</b> (o200k_base, the prompt strings): B has 27 more.</p>`}},
		{name: "two sets of inputs side by side: their messages",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bvars=" + url.QueryEscape(`{"name": "Grace Hopper"}`),
			// "Hi Grace Hopper x2" is one token more than "Hi Ada x2".
			want: []string{`<p class="tokens" id="compare-tokens">A <b class="ntok">18</b> tokens, B <b class="ntok">19</b> (o200k_base, the messages as OpenAI counts them): B has 1 more.</p>`}},
		{name: "the same count",
			opts: []Option{Tokenizer(o200k, true)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bvars=" + url.QueryEscape(`{"name": "Bob"}`),
			want: []string{`A <b class="ntok">18</b> tokens, B <b class="ntok">18</b> (o200k_base, the messages as OpenAI counts them): the same.</p>`}},
		{name: "a tokenizer.json does not count messages side by side",
			opts: []Option{Tokenizer(llama3, false)}, target: "/t/greet.hbs?go=1&v.name=Ada&v.n=2&bvars=" + url.QueryEscape(`{"name": "Bob"}`),
			notWant: []string{`id="compare-tokens"`}},
		{name: "no tokenizer, no counts", target: "/t/greet.hbs",
			notWant: []string{`class="tokens"`, `class="ntok"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, writeDir(t, files), tc.opts...)
			getPage(t, s, tc.target, tc.want, tc.notWant)
		})
	}
}

func TestCompareTokensDelta(t *testing.T) {
	for _, tc := range []struct {
		a, b int
		want string
	}{{10, 12, "B has 2 more"}, {12, 10, "B has 2 fewer"}, {7, 7, "the same"}} {
		assert.Equal(t, tc.want, (&compareTokens{A: tc.a, B: tc.b}).Delta())
	}
}
