package opencompass_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format/opencompass"
)

// TestEncodeTemplateOutput pins seedsys O18b/O18c: OpenCompass's
// PromptTemplate._encode_template writes {"section": "end", "pos": "end"}
// twice for a dataset's end section, and both of its parsers then fail
// (IndexError: pop from empty list). rolemark fails too, with an error that
// names the section, in the LM and the API form, in ppl and gen mode.
func TestEncodeTemplateOutput(t *testing.T) {
	o18c := []opencompass.PromptItem{
		{Section: "begin", Pos: "begin"}, {Role: "SYSTEM", FallbackRole: "HUMAN", Prompt: "S"}, {Section: "begin", Pos: "end"},
		{Section: "round", Pos: "begin"}, ocH("q"), ocB("a"), {Section: "round", Pos: "end"},
		{Section: "end", Pos: "end"}, ocText("POST"), {Section: "end", Pos: "end"},
	}
	api := &opencompass.MetaTemplate{Round: []opencompass.MetaRole{
		{Role: "HUMAN", APIRole: "HUMAN"}, {Role: "BOT", APIRole: "BOT", Generate: true}}}
	const unbalanced = "opencompass: section end ends without beginning"

	t.Run("O18b LM ppl", func(t *testing.T) {
		_, err := mt4.RenderPromptList(o18c, false)
		require.EqualError(t, err, unbalanced)
	})
	t.Run("O18b API ppl", func(t *testing.T) {
		_, err := api.APIPromptList(o18c, false)
		require.EqualError(t, err, unbalanced)
	})
	// In gen mode both of OpenCompass's parsers stop at the generate role
	// ("if not generate: break") and never reach the broken end section.
	t.Run("O18c LM gen stops before the end section", func(t *testing.T) {
		got, err := mt4.RenderPromptList(o18c, true)
		require.NoError(t, err)
		require.Equal(t, metaInst+"<SYSTEM>: S<eosys>\n<HUMAN>: q<eoh>\n<BOT>: ", got)
	})
	t.Run("O18c API gen stops before the end section", func(t *testing.T) {
		got, err := api.APIPromptList(o18c, true)
		require.NoError(t, err)
		require.Equal(t, []opencompass.APIMessage{{Role: "HUMAN", Prompt: "S\nq"}}, got)
	})
}
