package chattemplate_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

// The corpus: real chat templates (testdata/hf/templates, where each came
// from in testdata/hf/sources.json) rendered by Python's Jinja2 as
// transformers does (testdata/hf/oracle.py writes testdata/hf/results.json)
// for the conversations of testdata/hf/conversations.json.

type corpusSource struct {
	File     string   `json:"file"`
	Model    string   `json:"model"`
	Source   string   `json:"source"`
	Licence  string   `json:"licence"`
	BOS      string   `json:"bos_token"`
	EOS      string   `json:"eos_token"`
	Special  []string `json:"special"`
	Also     []string `json:"also"`
	template string
}

// from reports whether the template came from (or also from) source.
func (s corpusSource) from(source string) bool {
	for _, a := range append([]string{s.Source}, s.Also...) {
		if strings.Contains(a, source) {
			return true
		}
	}
	return false
}

type corpusConversation struct {
	Name                string          `json:"name"`
	AddGenerationPrompt bool            `json:"add_generation_prompt"`
	Messages            []corpusMessage `json:"messages"`
	Tools               []fixture.Tool  `json:"tools"`
}

type corpusMessage struct {
	Role       chat.Role          `json:"role"`
	Content    json.RawMessage    `json:"content"`
	ToolCalls  []fixture.ToolCall `json:"tool_calls"`
	ToolCallID string             `json:"tool_call_id"`
}

type corpusResult struct {
	Template     string  `json:"template"`
	Conversation string  `json:"conversation"`
	Output       *string `json:"output"`
	Error        string  `json:"error"`
	ErrorKind    string  `json:"error_kind"`
}

func (c corpusConversation) messages(t testing.TB) []chat.Message {
	out := make([]chat.Message, len(c.Messages))
	for i, m := range c.Messages {
		msg := chat.Message{Role: m.Role, ToolCallID: m.ToolCallID}
		var s string
		var parts []struct {
			Type chat.PartType `json:"type"`
			Text string        `json:"text"`
			URL  string        `json:"url"`
		}
		switch {
		case json.Unmarshal(m.Content, &s) == nil:
			msg = chat.Text(m.Role, s)
			msg.ToolCallID = m.ToolCallID
		case json.Unmarshal(m.Content, &parts) == nil:
			for _, p := range parts {
				msg.Content = append(msg.Content, chat.Part{Type: p.Type, Text: p.Text, URL: p.URL})
			}
		default:
			t.Fatalf("%s: content %s", c.Name, m.Content)
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		out[i] = msg
	}
	return out
}

// options are the rendering options of the conversation, special tokens
// allowed.
func (c corpusConversation) options() []format.Option {
	opts := []format.Option{format.Tools(c.tools()...), format.AllowSpecialTokens()}
	if c.AddGenerationPrompt {
		opts = append(opts, format.GenerationPrompt())
	}
	return opts
}

func (c corpusConversation) tools() []chat.Tool {
	return fixture.ChatTools(c.Tools)
}

var pinnedClock = func() time.Time { return time.Date(2024, 7, 26, 12, 34, 56, 0, time.UTC) }

func readCorpus(t testing.TB) ([]corpusSource, map[string]corpusConversation, []corpusResult) {
	t.Helper()
	dir := filepath.Join("testdata", "hf")
	var sources []corpusSource
	fixture.ReadJSON(t, filepath.Join(dir, "sources.json"), &sources)
	for i := range sources {
		b, err := os.ReadFile(filepath.Join(dir, "templates", sources[i].File))
		require.NoError(t, err)
		sources[i].template = string(b)
	}
	var convs []corpusConversation
	fixture.ReadJSON(t, filepath.Join(dir, "conversations.json"), &convs)
	byName := map[string]corpusConversation{}
	for _, c := range convs {
		byName[c.Name] = c
	}
	var results []corpusResult
	fixture.ReadJSON(t, filepath.Join(dir, "results.json"), &results)
	return sources, byName, results
}

func (s corpusSource) compile() (*chattemplate.Template, error) {
	return chattemplate.New(s.template, chattemplate.Name(s.File), chattemplate.Clock(pinnedClock),
		chattemplate.Token("bos_token", s.BOS), chattemplate.Token("eos_token", s.EOS), chattemplate.SpecialTokens(s.Special...))
}

// TestCorpus renders every (template, conversation) pair of the corpus and
// compares it with Jinja2's: at least 97% byte-identical, and every other
// pair an error, never a different string. Where Jinja2 raises, Render
// must return an error.
func TestCorpus(t *testing.T) {
	sources, convs, results := readCorpus(t)
	require.GreaterOrEqual(t, len(sources), 60)
	byFile := map[string]corpusSource{}
	for _, s := range sources {
		byFile[s.File] = s
	}
	compiled := map[string]*chattemplate.Template{}
	compileErr := map[string]error{}
	for _, s := range sources {
		compiled[s.File], compileErr[s.File] = s.compile()
	}
	for _, path := range []struct {
		name string
		of   func(*chattemplate.Template) *chattemplate.Template
	}{
		{"Render", func(t *chattemplate.Template) *chattemplate.Template { return t }},
	} {
		t.Run(path.name, func(t *testing.T) {
			var identical, bothErr int
			var goOnlyErr, mismatch, pyOnlyErr []string
			for _, r := range results {
				conv := convs[r.Conversation]
				var got string
				err := compileErr[r.Template]
				if err == nil {
					got, err = path.of(compiled[r.Template]).Render(context.Background(), conv.messages(t), conv.options()...)
				}
				key := r.Template + " " + byFile[r.Template].Model + " / " + r.Conversation
				switch {
				case r.Output == nil && err != nil:
					bothErr++
				case r.Output == nil:
					pyOnlyErr = append(pyOnlyErr, fmt.Sprintf("%s: Jinja2 raises %s: %s", key, r.ErrorKind, r.Error))
				case err != nil:
					goOnlyErr = append(goOnlyErr, fmt.Sprintf("%s: %v", key, err))
				case got == *r.Output:
					identical++
				default:
					mismatch = append(mismatch, fmt.Sprintf("%s:\n  want %q\n  got  %q", key, *r.Output, got))
				}
			}
			pyOK := identical + len(goOnlyErr) + len(mismatch)
			t.Logf("%d templates, %d pairs: %d of %d that Jinja2 renders are identical (%.1f%%); %d raise in both; %d are errors here only",
				len(sources), len(results), identical, pyOK, 100*float64(identical)/float64(pyOK), bothErr, len(goOnlyErr))
			sort.Strings(goOnlyErr)
			for _, s := range goOnlyErr {
				t.Logf("error here only: %s", s)
			}
			assert.Empty(t, mismatch, "different strings:\n%s", strings.Join(mismatch, "\n"))
			assert.Empty(t, pyOnlyErr, "Jinja2 raises, Render succeeds:\n%s", strings.Join(pyOnlyErr, "\n"))
			assert.GreaterOrEqual(t, float64(identical)/float64(len(results)-bothErr), 0.97)
		})
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
