package chattemplate_test

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

type goldenHead struct {
	BOS string `json:"bos_token"`
	EOS string `json:"eos_token"`
}

// golden is chat/format's golden renderings of the presets' templates.
var golden = filepath.Join("..", "testdata", "golden")

var shaRe = regexp.MustCompile(`sha256 ([0-9a-f]{12})`)

// presetTemplate finds the model's own template of a preset in the corpus
// of testdata/hf.
func presetTemplate(t *testing.T, sources []corpusSource, preset, origin string) corpusSource {
	t.Helper()
	for _, s := range sources {
		switch {
		case preset == "qwen2.5" && s.from("oracle.py QWEN25"),
			preset == "mistral-v3" && s.from("oracle.py MISTRAL_V3"):
			return s
		}
		if m := shaRe.FindStringSubmatch(origin); m != nil && strings.HasPrefix(sha256hex(s.template), m[1]) {
			return s
		}
	}
	t.Fatalf("%s: template %s is not in testdata/hf", preset, origin)
	return corpusSource{}
}

// Every preset whose model publishes a chat template gives, for every golden
// conversation, what the template gives through Template: the same string,
// or an error where the preset refuses (a template's refusal, or a part
// the preset cannot write and the template drops).
func TestPresetsAgainstTheirTemplates(t *testing.T) {
	sources, _, _ := readCorpus(t)
	cases, files := fixture.ReadGolden(t, golden)
	for _, g := range files {
		t.Run(g.Preset, func(t *testing.T) {
			var head goldenHead
			fixture.ReadJSON(t, filepath.Join(golden, g.Preset+".json"), &head)
			src := presetTemplate(t, sources, g.Preset, g.Template)
			tpl, err := chattemplate.New(src.template, chattemplate.Token("bos_token", head.BOS), chattemplate.Token("eos_token", head.EOS))
			require.NoError(t, err)
			preset, _ := format.Lookup(g.Preset)
			for _, res := range g.Results {
				c := cases[res.Name]
				opts := []format.Option{format.Tools(c.ChatTools()...), format.AllowSpecialTokens()}
				opts = append(opts, c.Options()...)
				fromTemplate, terr := tpl.Render(context.Background(), c.ChatMessages(), opts...)
				fromPreset, perr := preset.Render(c.ChatMessages(), opts...)
				var pe *format.PartError
				switch {
				case errors.As(perr, &pe):
					assert.True(t, c.HasToolParts(), "%s: %v", c.Name, perr)
				case perr != nil:
					assert.Error(t, terr, "%s: the preset refuses (%v), the template renders", c.Name, perr)
				default:
					require.NoError(t, terr, c.Name)
					assert.Equal(t, fromTemplate, fromPreset, c.Name)
				}
			}
		})
	}
}

// Images: Gemma 3's template writes <start_of_image> for an image part, and
// so does the preset; Llama 3's and ChatML's templates have no place for
// one, and their presets refuse it.
func TestPresetImages(t *testing.T) {
	sources, _, _ := readCorpus(t)
	msgs := []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{
		chat.TextPart(" What is this? "), {Type: chat.PartImage, URL: "https://example.com/cat.png"}, chat.TextPart("Be brief.")}}}
	var gemmaSrc corpusSource
	for _, s := range sources {
		if s.File == "022.jinja" {
			gemmaSrc = s
		}
	}
	require.Contains(t, gemmaSrc.template, "<start_of_image>")
	tpl, err := chattemplate.New(gemmaSrc.template, chattemplate.Token("bos_token", "<bos>"))
	require.NoError(t, err)
	want, err := tpl.Render(context.Background(), msgs, format.GenerationPrompt())
	require.NoError(t, err)
	gemma3, _ := format.Lookup("gemma3")
	got, err := gemma3.Render(msgs, format.GenerationPrompt())
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "<bos><start_of_turn>user\nWhat is this?<start_of_image>Be brief.<end_of_turn>\n<start_of_turn>model\n", got)

	for _, name := range []string{"llama3", "chatml"} {
		f, _ := format.Lookup(name)
		_, err := f.Render(msgs)
		var pe *format.PartError
		require.ErrorAs(t, err, &pe, name)
		assert.Equal(t, "image", pe.Part)
		_, err = f.Render([]chat.Message{chat.Text(chat.RoleUser, "w?"), {Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "1", Name: "w", Arguments: []byte("{}")}}}})
		require.ErrorAs(t, err, &pe, name)
		assert.Equal(t, "tool call", pe.Part)
	}
}

// Every preset refuses each of its special tokens in message content.
func TestPresetsRefuseSpecialTokens(t *testing.T) {
	for _, name := range format.Names() {
		f, _ := format.Lookup(name)
		for _, tok := range append([]string{f.BOS, f.EOS}, f.Special...) {
			if tok == "" {
				continue
			}
			_, err := f.Render([]chat.Message{chat.Text(chat.RoleUser, "a "+tok+" b")})
			var se *format.SpecialTokenError
			if assert.ErrorAs(t, err, &se, "%s %q", name, tok) {
				assert.Equal(t, tok, se.Token, name)
			}
		}
	}
}

// The special token named is the first in the text and, of those that
// start there, the longest, whatever the order of Special; an empty token
// is no token.
func TestSpecialTokenLongestFirst(t *testing.T) {
	chatml, _ := format.Lookup("chatml")
	for _, special := range [][]string{{"<|a|>", "<|a|>b", ""}, {"", "<|a|>b", "<|a|>"}} {
		f := *chatml
		f.Special = append(slices.Clone(chatml.Special), special...)
		_, err := f.Render([]chat.Message{chat.Text(chat.RoleUser, "x <|a|>b <|im_end|>")})
		var se *format.SpecialTokenError
		require.ErrorAs(t, err, &se, "%q", special)
		assert.Equal(t, "<|a|>b", se.Token, "%q", special)
		_, err = f.Render([]chat.Message{chat.Text(chat.RoleUser, "no token here")})
		require.NoError(t, err, "%q", special)
	}
}
