package opencompass_test

import (
	"fmt"

	"github.com/rolemark/rolemark/chat/format/opencompass"
)

func ExampleMetaTemplate_Render() {
	meta := &opencompass.MetaTemplate{
		Round: []opencompass.MetaRole{
			{Role: "HUMAN", Begin: "<HUMAN>: ", End: "<eoh>\n"},
			{Role: "BOT", Begin: "<BOT>: ", End: "<eob>\n", Generate: true},
		},
	}
	prompt, _ := meta.Render([]opencompass.PromptItem{
		{Role: "HUMAN", Prompt: "1+1=?"}, {Role: "BOT", Prompt: "2"},
		{Role: "HUMAN", Prompt: "2+2=?"}, {Role: "BOT", Prompt: "4"},
	}, true)
	fmt.Printf("%q\n", prompt)
	// Output:
	// "<HUMAN>: 1+1=?<eoh>\n<BOT>: 2<eob>\n<HUMAN>: 2+2=?<eoh>\n<BOT>: "
}
