package opencompass_test

import (
	"fmt"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/opencompass"
)

// OpenCompass's LMTemplateParser in gen mode, on a PromptList.
func ExampleMetaTemplate_RenderPromptList() {
	meta := &opencompass.MetaTemplate{
		Round: []opencompass.MetaRole{
			{Role: "HUMAN", Begin: "<HUMAN>: ", End: "<eoh>\n"},
			{Role: "BOT", Begin: "<BOT>: ", End: "<eob>\n", Generate: true},
		},
	}
	prompt, _ := meta.RenderPromptList([]opencompass.PromptItem{
		{Role: "HUMAN", Prompt: "1+1=?"}, {Role: "BOT", Prompt: "2"},
		{Role: "HUMAN", Prompt: "2+2=?"}, {Role: "BOT", Prompt: "4"},
	}, true)
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<HUMAN>: 1+1=?<eoh>\n<BOT>: 2<eob>\n<HUMAN>: 2+2=?<eoh>\n<BOT>: "
}

// A conversation rendered with a meta template, as a Format would render it;
// the PromptList underneath is OpenCompass's own.
func ExampleMetaTemplate_Render() {
	meta, err := opencompass.Parse([]byte(`{"round": [
		{"role": "HUMAN", "begin": "<|User|>:", "end": "\n"},
		{"role": "BOT", "begin": "<|Bot|>:", "end": "<eoa>\n", "generate": true}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	prompt, err := meta.Render([]chat.Message{
		chat.Text(chat.RoleUser, "1+1=?"), chat.Text(chat.RoleAssistant, "2"), chat.Text(chat.RoleUser, "2+2=?"),
	}, format.GenerationPrompt())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<|User|>:1+1=?\n<|Bot|>:2<eoa>\n<|User|>:2+2=?\n<|Bot|>:"
}

// OpenCompass's list-form API meta template: a system item the
// conversation lacks is inserted, a user item prefixes the user's message.
func ExampleListTemplate_Apply() {
	meta, err := opencompass.ParseList([]byte(`[
		{"role": "system", "content": "You are a careful grader."},
		{"role": "user", "content": "Question: "}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs, err := meta.Apply([]chat.Message{chat.Text(chat.RoleUser, "1+1=?")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range msgs {
		fmt.Printf("%s: %q\n", m.Role, m.Text())
	}
	// Output:
	// system: "You are a careful grader."
	// user: "Question: 1+1=?"
}
