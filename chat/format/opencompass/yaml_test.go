package opencompass_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/opencompass"
)

// An OpenCompass meta template loads from YAML as from JSON: round entries
// are role mappings or plain strings, and so are PromptList items.
func TestMetaTemplateYAML(t *testing.T) {
	src := `
begin: "Meta instruction: You are now a helpful and harmless AI assistant."
round:
  - "<round>"
  - {role: HUMAN, begin: "<HUMAN>: ", end: "<eoh>\n"}
  - {role: BOT, begin: "<BOT>: ", end: "<eob>\n", generate: true}
reserved_roles:
  - {role: SYSTEM, begin: "<SYSTEM>: ", end: "<eosys>\n"}
end: end of conversation
eos_token_id: 10000
`
	var mt opencompass.MetaTemplate
	require.NoError(t, yaml.Unmarshal([]byte(src), &mt))
	require.NoError(t, mt.Validate())
	assert.Equal(t, []opencompass.MetaRole{{Text: "<round>"},
		{Role: "HUMAN", Begin: "<HUMAN>: ", End: "<eoh>\n"},
		{Role: "BOT", Begin: "<BOT>: ", End: "<eob>\n", Generate: true}}, mt.Round)
	assert.Equal(t, 10000, mt.EOSTokenID)

	var items []opencompass.PromptItem
	require.NoError(t, yaml.Unmarshal([]byte(`
- {section: begin, pos: begin}
- "PRE "
- {role: SYSTEM, fallback_role: HUMAN, prompt: S}
- {section: begin, pos: end}
- {section: round, pos: begin}
- {role: HUMAN, prompt: q, end: "\n"}
- {section: round, pos: end}
`), &items))
	got, err := mt.RenderPromptList(items, true)
	require.NoError(t, err)
	assert.Equal(t, "Meta instruction: You are now a helpful and harmless AI assistant.PRE <SYSTEM>: S<eosys>\n<round><HUMAN>: q\n<BOT>: ", got)

	// Round trip: plain strings stay strings.
	out, err := yaml.Marshal(&mt)
	require.NoError(t, err)
	var back opencompass.MetaTemplate
	require.NoError(t, yaml.Unmarshal(out, &back))
	assert.Equal(t, mt, back)
	out, err = yaml.Marshal(items)
	require.NoError(t, err)
	var itemsBack []opencompass.PromptItem
	require.NoError(t, yaml.Unmarshal(out, &itemsBack))
	assert.Equal(t, items, itemsBack)

	// As in JSON, a round role needs a name, and begin/end are strings (O20).
	require.Error(t, yaml.Unmarshal([]byte("round: [{begin: x}]"), &mt))
	require.Error(t, yaml.Unmarshal([]byte("round: [{role: HUMAN, begin: ['<s>', 1]}]"), &mt))
}

// Parse reads the JSON form and refuses what OpenCompass refuses.
func TestParseMetaTemplate(t *testing.T) {
	mt, err := opencompass.Parse([]byte(`{"round": [{"role": "HUMAN", "begin": "Q: ", "end": "\n"},
		{"role": "BOT", "begin": "A: ", "end": "\n", "generate": true}]}`))
	require.NoError(t, err)
	got, err := mt.Render([]chat.Message{chat.Text(chat.RoleUser, "1+1?")}, format.GenerationPrompt())
	require.NoError(t, err)
	assert.Equal(t, "Q: 1+1?\nA: ", got)
	_, err = opencompass.Parse([]byte(`{"round": [{"role": "HUMAN"}, {"role": "HUMAN"}]}`))
	assert.ErrorContains(t, err, "must be unique")
	_, err = opencompass.Parse([]byte(`{"round": [], "meta": 1}`))
	assert.ErrorContains(t, err, `unknown field "meta"`)
}
