package batch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/tokens"
)

// sftTokensCase is one case of testdata/sft_tokens/expected.json, which
// render.py (Jinja2 and transformers' AssistantTracker) and mask.mjs
// (@huggingface/tokenizers and transformers' mask loop) made.
type sftTokensCase struct {
	Template          string   `json:"template"`
	Tokenizer         string   `json:"tokenizer"`
	Conversation      string   `json:"conversation"`
	BOS               string   `json:"bos_token"`
	EOS               string   `json:"eos_token"`
	Messages          []hfMsg  `json:"messages"`
	Tools             []hfTool `json:"tools"`
	Text              string   `json:"text"`
	GenerationIndices [][2]int `json:"generation_indices"`
	InputIDs          []int    `json:"input_ids"`
	Offsets           [][2]int `json:"offsets"`
	AssistantMasks    []int    `json:"assistant_masks"`
}

type hfMsg struct {
	Role      chat.Role `json:"role"`
	Content   string    `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

type hfTool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func (c sftTokensCase) chat() ([]chat.Message, []chat.Tool) {
	msgs := make([]chat.Message, len(c.Messages))
	for i, m := range c.Messages {
		msgs[i] = chat.Text(m.Role, m.Content)
		msgs[i].ToolCallID = m.ToolCallID
		for _, tc := range m.ToolCalls {
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
	}
	var tools []chat.Tool
	for _, t := range c.Tools {
		tools = append(tools, chat.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return msgs, tools
}

func readSFTTokens(t *testing.T) (string, []sftTokensCase) {
	raw, err := os.ReadFile("testdata/sft_tokens/expected.json")
	require.NoError(t, err)
	var doc struct {
		Opens string          `json:"opens.jinja"`
		Cases []sftTokensCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.NotEmpty(t, doc.Cases)
	return doc.Opens, doc.Cases
}

func sftTemplate(t *testing.T, opens string, c sftTokensCase) *chattemplate.Template {
	src := opens
	if c.Template != "opens.jinja" {
		b, err := os.ReadFile(filepath.Join("..", "chat", "format", "chattemplate", "testdata", "hf", "templates", c.Template))
		require.NoError(t, err)
		src = string(b)
	}
	tpl, err := chattemplate.New(src, chattemplate.Name(c.Template),
		chattemplate.Token("bos_token", c.BOS), chattemplate.Token("eos_token", c.EOS),
		chattemplate.Clock(func() time.Time { return time.Date(2024, 7, 26, 12, 34, 56, 0, time.UTC) }))
	require.NoError(t, err)
	return tpl
}

func sftTokenizer(t *testing.T, name string) *tokens.Tokenizer {
	tk, err := tokens.LoadHFFile(os.DirFS(filepath.Join("..", "tokens", "testdata", "vocab")), name+".tokenizer.json.gz")
	require.NoError(t, err)
	return tk
}

// chars converts a byte offset of s to characters.
func chars(s string, i int) int { return utf8.RuneCountInString(s[:i]) }

// TestAssistantTokensOracle requires AssistantTokens to give transformers'
// input_ids and assistant_masks for real chat templates with generation
// blocks and five tokenizers, and the steps between (the text, the
// generation indices, the offsets) to be the oracle's.
func TestAssistantTokensOracle(t *testing.T) {
	opens, cases := readSFTTokens(t)
	tks := map[string]*tokens.Tokenizer{}
	for _, c := range cases {
		t.Run(c.Template+"/"+c.Tokenizer+"/"+c.Conversation, func(t *testing.T) {
			tk := tks[c.Tokenizer]
			if tk == nil {
				tk = sftTokenizer(t, c.Tokenizer)
				tks[c.Tokenizer] = tk
			}
			tpl := sftTemplate(t, opens, c)
			msgs, tools := c.chat()
			text, spans, err := tpl.RenderSpans(context.Background(), msgs, format.Tools(tools...))
			require.NoError(t, err)
			require.Equal(t, c.Text, text)
			got := [][2]int{}
			for _, s := range spans {
				got = append(got, [2]int{chars(text, s[0]), chars(text, s[1])})
			}
			assert.Equal(t, c.GenerationIndices, got, "generation indices")
			_, offs := tk.EncodeOffsets(text)
			gotOffs := make([][2]int, len(offs))
			for k, o := range offs {
				gotOffs[k] = [2]int{chars(text, o.Start), chars(text, o.End)}
			}
			assert.Equal(t, c.Offsets, gotOffs, "offsets")
			ids, mask, err := AssistantTokens(context.Background(), tpl, tk, msgs, Tools(tools))
			require.NoError(t, err)
			assert.Equal(t, c.InputIDs, ids, "input_ids")
			assert.Equal(t, c.AssistantMasks, mask, "assistant_masks")
		})
	}
}

// TestAssistantMask covers transformers' edge rules on made-up offsets.
func TestAssistantMask(t *testing.T) {
	offs := []tokens.Offset{{Start: 0, End: 2}, {Start: 2, End: 4}, {Start: 4, End: 6}, {Start: 6, End: 8}}
	tests := []struct {
		name  string
		spans [][2]int
		want  []int
	}{
		{name: "one", spans: [][2]int{{2, 6}}, want: []int{0, 1, 1, 0}},
		{name: "inside tokens", spans: [][2]int{{3, 5}}, want: []int{0, 1, 1, 0}},
		// an empty span marks from its token to the token before it: nothing
		{name: "empty", spans: [][2]int{{4, 4}}, want: []int{0, 0, 0, 0}},
		// end_token 0 is falsy in Python: to the end of the text
		{name: "end token zero", spans: [][2]int{{0, 1}}, want: []int{1, 1, 1, 1}},
		// a start past the text stops the loop, later spans too
		{name: "start past the end", spans: [][2]int{{8, 9}, {2, 4}}, want: []int{0, 0, 0, 0}},
		// an end past the text: end_token None, to the end
		{name: "end past the end", spans: [][2]int{{4, 12}}, want: []int{0, 0, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, AssistantMask(offs, tc.spans))
		})
	}
}

func TestAssistantTokensNoGeneration(t *testing.T) {
	tpl, err := chattemplate.New("{% for m in messages %}{{ m.content }}{% endfor %}")
	require.NoError(t, err)
	_, _, err = AssistantTokens(context.Background(), tpl, sftTokenizer(t, "llama3"), []chat.Message{chat.Text(chat.RoleUser, "x")})
	assert.ErrorIs(t, err, chattemplate.ErrNoGeneration)
}
