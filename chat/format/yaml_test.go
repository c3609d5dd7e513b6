package format_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// A Format is plain data in YAML too: every preset survives a YAML round
// trip, and the YAML keys are the JSON ones.
func TestFormatYAML(t *testing.T) {
	for _, name := range format.Names() {
		t.Run(name, func(t *testing.T) {
			f, _ := format.Lookup(name)
			data, err := yaml.Marshal(f)
			require.NoError(t, err)
			var g format.Format
			dec := yaml.NewDecoder(bytesReader(data))
			dec.KnownFields(true)
			require.NoError(t, dec.Decode(&g), "%s", data)
			assert.Equal(t, f, &g)

			// The same document read as JSON gives the same Format.
			var generic any
			require.NoError(t, yaml.Unmarshal(data, &generic))
			js, err := json.Marshal(generic)
			require.NoError(t, err)
			h, err := format.Parse(js)
			require.NoError(t, err, "%s", js)
			assert.Equal(t, f, h)
		})
	}

	src := `
name: vicuna-like
bos: "<s>"
roles:
  system: {end: "\n\n"}
  user: {begin: "USER: ", end: "\n"}
  assistant: {begin: "ASSISTANT: ", end: "</s>\n", trim: true}
fallback: {tool: user}
generation_prompt: "ASSISTANT:"
system:
  placement: turn
  default: A chat.
`
	var f format.Format
	dec := yaml.NewDecoder(bytesReader([]byte(src)))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&f))
	require.NoError(t, f.Validate())
	got, err := f.Render([]chat.Message{user("Hi"), asst(" Hello! "), tool("42", "c1")}, format.Options{AddGenerationPrompt: true})
	require.NoError(t, err)
	assert.Equal(t, "<s>A chat.\n\nUSER: Hi\nASSISTANT: Hello!</s>\nUSER: 42\nASSISTANT:", got)

	var bad format.Format
	dec = yaml.NewDecoder(bytesReader([]byte("generation_promt: x\n")))
	dec.KnownFields(true)
	assert.ErrorContains(t, dec.Decode(&bad), "field generation_promt not found")
}

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
	var mt format.MetaTemplate
	require.NoError(t, yaml.Unmarshal([]byte(src), &mt))
	require.NoError(t, mt.Validate())
	assert.Equal(t, []format.MetaRole{{Text: "<round>"},
		{Role: "HUMAN", Begin: "<HUMAN>: ", End: "<eoh>\n"},
		{Role: "BOT", Begin: "<BOT>: ", End: "<eob>\n", Generate: true}}, mt.Round)
	assert.Equal(t, 10000, mt.EOSTokenID)

	var items []format.PromptItem
	require.NoError(t, yaml.Unmarshal([]byte(`
- {section: begin, pos: begin}
- "PRE "
- {role: SYSTEM, fallback_role: HUMAN, prompt: S}
- {section: begin, pos: end}
- {section: round, pos: begin}
- {role: HUMAN, prompt: q, end: "\n"}
- {section: round, pos: end}
`), &items))
	got, err := mt.Render(items, true)
	require.NoError(t, err)
	assert.Equal(t, "Meta instruction: You are now a helpful and harmless AI assistant.PRE <SYSTEM>: S<eosys>\n<round><HUMAN>: q\n<BOT>: ", got)

	// Round trip: plain strings stay strings.
	out, err := yaml.Marshal(&mt)
	require.NoError(t, err)
	var back format.MetaTemplate
	require.NoError(t, yaml.Unmarshal(out, &back))
	assert.Equal(t, mt, back)
	out, err = yaml.Marshal(items)
	require.NoError(t, err)
	var itemsBack []format.PromptItem
	require.NoError(t, yaml.Unmarshal(out, &itemsBack))
	assert.Equal(t, items, itemsBack)

	// As in JSON, a round role needs a name, and begin/end are strings (O20).
	require.Error(t, yaml.Unmarshal([]byte("round: [{begin: x}]"), &mt))
	require.Error(t, yaml.Unmarshal([]byte("round: [{role: HUMAN, begin: ['<s>', 1]}]"), &mt))
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
