package batch_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

type sftGolden struct {
	Conversations []struct {
		Name     string          `json:"name"`
		Messages json.RawMessage `json:"messages"`
	} `json:"conversations"`
	Presets map[string]struct {
		Template string        `json:"template"`
		Results  []oracleSpans `json:"results"`
	} `json:"presets"`
}

// endTokens is the end of the assistant's turn each preset's template
// writes after the content (read from the templates); "" where the turn
// ends with white space only.
var endTokens = map[string]string{
	"alfred": "<end_message>", "alpaca": "\n<|EOT|>", "chatml": "<|im_end|>", "chatqa": "<|end_of_text|>",
	"codellama-70b": " <step>", "command-r": "<|END_OF_TURN_TOKEN|>", "falcon": "", "gemma": "<end_of_turn>",
	"gemma3": "<end_of_turn>", "granite": "", "lazyllm-chat": "", "llama2": " </s>", "llama3": "<|eot_id|>",
	"magicoder": "<｜end▁of▁sentence｜>", "mistral": "</s>", "mistral-v3": "</s>", "openchat": "<|end_of_turn|>", "phi3": "<|end|>",
	"qwen": "<|im_end|>", "qwen2": "<|im_end|>", "qwen2.5": "<|im_end|>", "solar": "", "starcoder2": "<|endoftext|>", "zephyr": "</s>",
}

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }

// oracleSpans is what an oracle script wrote for one conversation: the
// text and spans, or the error that stopped the template.
type oracleSpans struct {
	Name  string   `json:"name"`
	Text  *string  `json:"text"`
	Spans [][2]int `json:"spans"`
	Error string   `json:"error"`
}

// check requires text and spans to be the oracle's, or err to be an error
// where the oracle had one. It reports whether there were text and spans,
// and returns the spans, empty rather than nil.
func (want oracleSpans) check(t *testing.T, text string, spans [][2]int, err error) ([][2]int, bool) {
	t.Helper()
	if want.Text == nil {
		assert.Error(t, err, "%s: the oracle: %s", want.Name, want.Error)
		return spans, false
	}
	require.NoError(t, err, want.Name)
	require.Equal(t, *want.Text, text, want.Name)
	if want.Spans == nil {
		want.Spans = [][2]int{}
	}
	if spans == nil {
		spans = [][2]int{}
	}
	require.Equal(t, want.Spans, spans, want.Name)
	return spans, true
}

func safeSpan(text string, spans [][2]int, i int) string {
	if i < len(spans) {
		return spanText(text, spans[i])
	}
	return "<none>"
}

func spanText(text string, sp [2]int) string {
	r := []rune(text)
	return string(r[sp[0]:sp[1]])
}

// TestSpansAgainstTemplates checks every preset on every conversation of
// testdata/sft_golden.json, written by the models' own HuggingFace
// templates through Jinja2 (testdata/sft_oracle.py): the same text, the
// same spans, and each span covering exactly an assistant content as the
// format writes it (with its end token under TurnEnds).
func TestSpansAgainstTemplates(t *testing.T) {
	b, err := os.ReadFile("testdata/sft_golden.json")
	require.NoError(t, err)
	var g sftGolden
	require.NoError(t, json.Unmarshal(b, &g))
	require.GreaterOrEqual(t, len(g.Conversations), 20)
	checked := 0
	for _, name := range format.Names() {
		f, _ := format.Lookup(name)
		golden, hasTemplate := g.Presets[name]
		if name == "qwen" {
			// Qwen (1.0) has no template of its own; its prompt is qwen2's.
			golden, hasTemplate = g.Presets["qwen2"]
		}
		if name != "lazyllm-chat" {
			require.True(t, hasTemplate, "every preset with a HuggingFace template is in the golden file: %s", name)
		}
		t.Run(name, func(t *testing.T) {
			for ci, c := range g.Conversations {
				var msgs []chat.Message
				require.NoError(t, json.Unmarshal(c.Messages, &msgs))
				text, spans, err := batch.Spans(f, msgs)
				var se *format.SpecialTokenError
				if errors.As(err, &se) {
					// Content that spells one of the model's special tokens
					// is refused by the format (chat/format, Special).
					assert.Contains(t, string(c.Messages), se.Token, c.Name)
					continue
				}
				if hasTemplate {
					want := golden.Results[ci]
					require.Equal(t, c.Name, want.Name)
					var ok bool
					if spans, ok = want.check(t, text, spans, err); !ok {
						continue
					}
					checked++
				} else if err != nil {
					continue
				}
				// Each span is one assistant content as written (as it is, or
				// stripped where the format trims), in order; a content that
				// is empty as written has none.
				var written []string
				j := 0
				for _, m := range msgs {
					if m.Role != chat.RoleAssistant {
						continue
					}
					c := m.Text()
					if j < len(spans) {
						if got := spanText(text, spans[j]); got != "" && (got == c || got == pyStrip(c)) {
							written = append(written, got)
							j++
							continue
						}
					}
					require.Equal(t, "", pyStrip(c), "%s: no span for an assistant content", c)
					written = append(written, "")
				}
				require.Equal(t, len(spans), j, "%s: every span is an assistant content", c.Name)
				// TurnEnds adds the end of the turn (a content empty as
				// written then spans its end token alone).
				_, endSpans, err := batch.Spans(f, msgs, batch.TurnEnds())
				require.NoError(t, err)
				j = 0
				for _, w := range written {
					if j < len(endSpans) && spanText(text, endSpans[j]) == w+endTokens[name] && w+endTokens[name] != "" {
						j++
						continue
					}
					require.Equal(t, "", w, "%s: span %d with its end: %q", c.Name, j, safeSpan(text, endSpans, j))
				}
				require.Equal(t, len(endSpans), j, "%s: every span with its end is an assistant content and its end", c.Name)
				// LastOnly keeps the last assistant message's span.
				_, last, err := batch.Spans(f, msgs, batch.LastOnly())
				require.NoError(t, err)
				lastA := -1
				for i, m := range msgs {
					if m.Role == chat.RoleAssistant {
						lastA = i
					}
				}
				if lastA >= 0 && pyStrip(msgs[lastA].Text()) != "" {
					assert.Equal(t, spans[len(spans)-1:], last, c.Name)
				} else {
					assert.Empty(t, last, c.Name)
				}
			}
		})
	}
	assert.GreaterOrEqual(t, checked, 21*14, "conversations checked against templates")
}

// TestSpansToolCalls: a format that writes tool calls gives the span of
// what the model writes for them; one that has no way to write them
// refuses them, naming the message.
func TestSpansToolCalls(t *testing.T) {
	msgs := []chat.Message{chat.Text(chat.RoleUser, "Weather?"), {Role: chat.RoleAssistant,
		ToolCalls: []chat.ToolCall{{ID: "c00000001", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}}}
	f, _ := format.Lookup("qwen2.5")
	text, spans, err := batch.Spans(f, msgs)
	require.NoError(t, err)
	require.Len(t, spans, 1)
	assert.Equal(t, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", spanText(text, spans[0]))
	_, spans, err = batch.Spans(f, msgs, batch.TurnEnds())
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(spanText(text, spans[0]), "</tool_call><|im_end|>"), spanText(text, spans[0]))

	f, _ = format.Lookup("chatml")
	_, _, err = batch.Spans(f, msgs)
	var pe *format.PartError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 1, pe.Index)
	assert.Equal(t, "tool call", pe.Part)
}
