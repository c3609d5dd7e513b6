package batch_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

type toolsGolden struct {
	Tools         []chat.Tool `json:"tools"`
	Conversations []struct {
		Name     string         `json:"name"`
		Messages []chat.Message `json:"messages"`
	} `json:"conversations"`
	Templates []struct {
		File    string        `json:"file"`
		Model   string        `json:"model"`
		Results []oracleSpans `json:"results"`
	} `json:"templates"`
}

// hfSource is an entry of chat/format's corpus of real chat templates.
type hfSource struct {
	File    string   `json:"file"`
	BOS     string   `json:"bos_token"`
	EOS     string   `json:"eos_token"`
	Special []string `json:"special"`
}

// loadHFTemplate compiles a template of chat/format's corpus as its test
// does, with the tokens the Jinja2 oracle gave it.
func loadHFTemplate(t *testing.T, file string) *chattemplate.Template {
	t.Helper()
	dir := filepath.Join("..", "chat", "format", "chattemplate", "testdata", "hf")
	b, err := os.ReadFile(filepath.Join(dir, "sources.json"))
	require.NoError(t, err)
	var sources []hfSource
	require.NoError(t, json.Unmarshal(b, &sources))
	for _, s := range sources {
		if s.File != file {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, "templates", file))
		require.NoError(t, err)
		tpl, err := chattemplate.New(string(src), chattemplate.Name(file),
			chattemplate.Clock(func() time.Time { return time.Date(2024, 7, 26, 12, 34, 56, 0, time.UTC) }),
			chattemplate.Token("bos_token", s.BOS), chattemplate.Token("eos_token", s.EOS), chattemplate.SpecialTokens(s.Special...))
		require.NoError(t, err)
		return tpl
	}
	t.Fatalf("no template %s", file)
	return nil
}

// TestSpansOverToolCalls checks TemplateSpans on real chat templates that
// write tool calls against testdata/sft_tools_golden.json, which Jinja2
// renders and an implementation of the same rule in Python measures
// (testdata/sft_tools_oracle.py): the same text, the same spans, and each
// span of a message with calls holding every call's name and arguments.
// The presets with tool calls (qwen2.5, mistral-v3) give what their
// models' templates give.
func TestSpansOverToolCalls(t *testing.T) {
	b, err := os.ReadFile("testdata/sft_tools_golden.json")
	require.NoError(t, err)
	var g toolsGolden
	require.NoError(t, json.Unmarshal(b, &g))
	presets := map[string]string{"093.jinja": "qwen2.5", "110.jinja": "mistral-v3"}
	models := map[string]bool{}
	spansWithCalls := 0
	for _, tg := range g.Templates {
		t.Run(tg.Model, func(t *testing.T) {
			tpl := loadHFTemplate(t, tg.File)
			for ci, c := range g.Conversations {
				want := tg.Results[ci]
				require.Equal(t, c.Name, want.Name)
				text, spans, err := batch.TemplateSpans(context.Background(), tpl, c.Messages, batch.Tools(g.Tools))
				var ok bool
				if spans, ok = want.check(t, text, spans, err); !ok {
					continue
				}
				j := 0
				for _, m := range c.Messages {
					if m.Role != chat.RoleAssistant {
						continue
					}
					got := spanText(text, spans[j])
					j++
					for _, call := range m.ToolCalls {
						assert.Contains(t, got, call.Name, c.Name)
						var args map[string]any
						require.NoError(t, json.Unmarshal(call.Arguments, &args))
						for k, v := range args {
							assert.Contains(t, got, k, c.Name)
							assert.Contains(t, got, v.(string), c.Name)
						}
					}
					if len(m.ToolCalls) > 0 {
						spansWithCalls++
						models[tg.Model] = true
					}
				}
				if name, ok := presets[tg.File]; ok {
					f, _ := format.Lookup(name)
					ptext, pspans, err := batch.Spans(f, c.Messages, batch.Tools(g.Tools))
					require.NoError(t, err, "%s %s", name, c.Name)
					assert.Equal(t, text, ptext, "%s %s", name, c.Name)
					assert.Equal(t, spans, pspans, "%s %s", name, c.Name)
				}
				// TurnEnds adds the end of the turn to every span that the
				// template ends with one.
				_, ends, err := batch.TemplateSpans(context.Background(), tpl, c.Messages, batch.Tools(g.Tools), batch.TurnEnds())
				require.NoError(t, err)
				require.Len(t, ends, len(spans))
				for k := range spans {
					assert.Equal(t, spans[k][0], ends[k][0])
					assert.GreaterOrEqual(t, ends[k][1], spans[k][1])
				}
			}
		})
	}
	for _, m := range []string{"Qwen 2.5", "Llama 3.1", "Mistral v3"} {
		assert.True(t, models[m], "%s: spans over tool calls checked", m)
	}
	assert.GreaterOrEqual(t, len(models), 5, "templates whose spans over tool calls are checked")
	assert.GreaterOrEqual(t, spansWithCalls, 25)
	_ = strings.TrimSpace
}
