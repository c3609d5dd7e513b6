package chattemplate_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// TestSpecialTokensDifferentialOracleFiles runs TestSpecialTokensDifferential's
// hostile conversations through the real templates of internal/jinja2's
// oracle files llamacpp.json (llama.cpp's: gpt-oss's <|start|> and
// <|channel|>, Mistral's [TOOL_CALLS], Llama 3's <|eot_id|> …) and
// real15.json (newer models': DeepSeek-V3.2's <｜User｜>, Kimi's
// <|im_user|>, GLM's <|observation|>, Phi-4's <|tool_call|>, Gemma 4's
// <|turn> and <turn|>, TranslateGemma's <start_of_turn>, MiniMax-M2's
// ]~b] …) and suites18.json (ollama's Gemma 4, Laguna, Nemotron 3 Nano),
// each as a bare
// template file is read (its special tokens those its text writes,
// TextTokens, beside bos and eos): for each token, a conversation or tool
// definition holding it is refused, and a rendering holds a token only
// where the neutral one does.
func TestSpecialTokensDifferentialOracleFiles(t *testing.T) {
	// suites18.json holds copies of the others' templates: only those it
	// was the first to hold (ollama's Gemma 4, Laguna and Nemotron 3 Nano)
	only := map[string]string{"suites18.json": "ollama/"}
	for _, file := range []string{"llamacpp.json", "real15.json", "suites18.json"} {
		t.Run(file, func(t *testing.T) {
			doc := readOracleCases(t, file)
			bos, eos := map[string]string{}, map[string]string{}
			for _, c := range doc.Cases {
				bos[c.TemplateRef], eos[c.TemplateRef] = c.Context.BOS, c.Context.EOS
			}
			refs := make([]string, 0, len(doc.Templates))
			for ref := range doc.Templates {
				if strings.HasPrefix(ref, only[file]) {
					refs = append(refs, ref)
				}
			}
			sort.Strings(refs)
			require.GreaterOrEqual(t, len(refs), 4)
			for _, ref := range refs {
				bare, err := chattemplate.New(doc.Templates[ref])
				if err != nil {
					continue // Jinja2 refuses it too (TestOracleConversations)
				}
				tpl, err := chattemplate.New(doc.Templates[ref], chattemplate.Name(ref), chattemplate.Clock(pinnedClock),
					chattemplate.Token("bos_token", bos[ref]), chattemplate.Token("eos_token", eos[ref]),
					chattemplate.SpecialTokens(bare.TextTokens()...))
				require.NoError(t, err, ref)
				tg := templateTarget(ref, tpl)
				for _, tok := range tg.tokens {
					if len(tok) < 3 {
						continue
					}
					for what, c := range hostile(tok) {
						for _, gen := range []bool{false, true} {
							opts := c.opts
							opts.AddGenerationPrompt = gen
							assert.Error(t, judge(t, tg, c.msgs, opts), "%s: %s %q: rendered", ref, what, tok)
						}
					}
				}
			}
		})
	}
}
