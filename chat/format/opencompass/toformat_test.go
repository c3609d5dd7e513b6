package opencompass_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/opencompass"
)

// ToFormat converts a meta template to a Format that writes what
// RenderMessages writes for conversations of whole rounds: after leading
// system messages, user and assistant alternate from a user message, ending
// with a user message in gen mode and with an assistant message otherwise.
func TestMetaTemplateToFormat(t *testing.T) {
	mt1Gen := &opencompass.MetaTemplate{Round: []opencompass.MetaRole{ocHuman, ocBotGen}}
	custom := &opencompass.MetaTemplate{
		Begin: "<s>", End: "</s>",
		Round:         []opencompass.MetaRole{{Role: "User", Begin: "U: ", End: "\n"}, {Role: "Assistant", Begin: "A: ", End: "\n", Generate: true}},
		ReservedRoles: []opencompass.MetaRole{{Role: "Sys", Begin: "S: ", End: "\n\n"}},
		ChatRoles:     map[chat.Role]string{chat.RoleUser: "User", chat.RoleAssistant: "Assistant", chat.RoleSystem: "Sys"},
	}
	templates := map[string]*opencompass.MetaTemplate{"mt1 with generate": mt1Gen, "mt4": mt4, "custom roles": custom}
	conversations := map[string]struct {
		msgs []chat.Message
		gen  bool
	}{
		"one question, gen":           {[]chat.Message{chat.Text(chat.RoleUser, "1+1=?")}, true},
		"system and question, gen":    {[]chat.Message{chat.Text(chat.RoleSystem, "Solve"), chat.Text(chat.RoleUser, "1+1=?")}, true},
		"two rounds, gen":             {[]chat.Message{chat.Text(chat.RoleSystem, "Solve"), chat.Text(chat.RoleUser, "1+1=?"), chat.Text(chat.RoleAssistant, "2"), chat.Text(chat.RoleUser, "2+2=?")}, true},
		"two system messages, gen":    {[]chat.Message{chat.Text(chat.RoleSystem, "A"), chat.Text(chat.RoleSystem, "B"), chat.Text(chat.RoleUser, "q")}, true},
		"one round, ppl":              {[]chat.Message{chat.Text(chat.RoleUser, "1+1=?"), chat.Text(chat.RoleAssistant, "2")}, false},
		"two rounds with system, ppl": {[]chat.Message{chat.Text(chat.RoleSystem, "Solve"), chat.Text(chat.RoleUser, "1+1=?"), chat.Text(chat.RoleAssistant, "2"), chat.Text(chat.RoleUser, "2+2=?"), chat.Text(chat.RoleAssistant, "4")}, false},
		"non-ASCII and spaces, ppl":   {[]chat.Message{chat.Text(chat.RoleSystem, " 你好 "), chat.Text(chat.RoleUser, "  Grüß  "), chat.Text(chat.RoleAssistant, "\tdich\n")}, false},
	}
	for tname, mt := range templates {
		f, err := mt.ToFormat()
		require.NoError(t, err, tname)
		for cname, c := range conversations {
			t.Run(tname+"/"+cname, func(t *testing.T) {
				var opts []format.Option
				if c.gen {
					opts = append(opts, format.GenerationPrompt())
				}
				want, err := mt.Render(c.msgs, opts...)
				require.NoError(t, err)
				got, err := f.Render(c.msgs, opts...)
				require.NoError(t, err)
				assert.Equal(t, want, got)
			})
		}
	}

	// The converted format of the document's template, spelled out.
	f, err := mt4.ToFormat()
	require.NoError(t, err)
	assert.Equal(t, &format.Format{
		Name:        "opencompass",
		Description: "OpenCompass meta template",
		Begin:       metaInst,
		End:         "end of conversation",
		Roles: map[chat.Role]format.Turn{
			chat.RoleUser:      {Begin: "<HUMAN>: ", End: "<eoh>\n"},
			chat.RoleAssistant: {Begin: "<BOT>: ", End: "<eob>\n"},
			chat.RoleSystem:    {Begin: "<SYSTEM>: ", End: "<eosys>\n"},
			chat.RoleDeveloper: {Begin: "<SYSTEM>: ", End: "<eosys>\n"},
		},
		Other:            &format.Turn{Begin: "<HUMAN>: ", End: "<eoh>\n"},
		Generate:         chat.RoleAssistant,
		GenerationPrompt: "<BOT>: ",
		Special:          []string{"<HUMAN>:", "<eoh>", "<BOT>:", "<eob>", "<SYSTEM>:", "<eosys>"},
	}, f)
	// Without a SYSTEM role, system messages fall back to the user's turn
	// (O04), and so do tool results.
	f, err = mt1Gen.ToFormat()
	require.NoError(t, err)
	result := chat.Text(chat.RoleTool, "t")
	result.ToolCallID = "c1"
	got, err := f.Render([]chat.Message{chat.Text(chat.RoleSystem, "Solve"), chat.Text(chat.RoleUser, "1+1=?"), chat.Text(chat.RoleAssistant, "2"), result})
	require.NoError(t, err)
	assert.Equal(t, "<HUMAN>: Solve<eoh>\n<HUMAN>: 1+1=?<eoh>\n<BOT>: 2<eob>\n<HUMAN>: t<eoh>\n", got)

	errs := []struct {
		name    string
		meta    *opencompass.MetaTemplate
		wantErr string
	}{
		{"nil", nil, "opencompass: round is required in meta template"},
		{"string in the round", &opencompass.MetaTemplate{Round: []opencompass.MetaRole{{Text: "<round>"}, ocHuman, ocBotGen}},
			`opencompass: a Format cannot write the string "<round>" of the round`},
		{"default prompt", &opencompass.MetaTemplate{Round: []opencompass.MetaRole{ocHuman, {Role: "BOT", Prompt: "None", Generate: true}}},
			"opencompass: a Format cannot write the default prompt of role BOT"},
		{"three roles", &opencompass.MetaTemplate{Round: []opencompass.MetaRole{ocHuman, {Role: "THOUGHTS"}, ocBotGen}},
			"opencompass: a Format needs a round of the user's role HUMAN and the assistant's role BOT, in that order"},
		{"assistant first", &opencompass.MetaTemplate{Round: []opencompass.MetaRole{ocBotGen, ocHuman}},
			"opencompass: a Format needs a round of the user's role HUMAN and the assistant's role BOT, in that order"},
		{"no generate role", mt1, "opencompass: a Format needs the assistant's role BOT to be the generate role"},
		{"duplicate role", &opencompass.MetaTemplate{Round: []opencompass.MetaRole{ocHuman, ocBotGen}, ReservedRoles: []opencompass.MetaRole{ocHuman}},
			"opencompass: role in meta prompt must be unique: HUMAN"},
	}
	for _, tc := range errs {
		t.Run("error/"+tc.name, func(t *testing.T) {
			_, err := tc.meta.ToFormat()
			require.EqualError(t, err, tc.wantErr)
		})
	}
}
