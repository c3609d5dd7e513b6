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
	got, err := f.Render([]chat.Message{user("Hi"), asst(" Hello! "), tool("42", "c1")}, format.GenerationPrompt())
	require.NoError(t, err)
	assert.Equal(t, "<s>A chat.\n\nUSER: Hi\nASSISTANT: Hello!</s>\nUSER: 42\nASSISTANT:", got)

	var bad format.Format
	dec = yaml.NewDecoder(bytesReader([]byte("generation_promt: x\n")))
	dec.KnownFields(true)
	assert.ErrorContains(t, dec.Decode(&bad), "field generation_promt not found")
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
