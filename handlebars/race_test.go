package handlebars_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/fixture"
)

// TestConcurrentRender renders one compiled template, with partials, history
// and every helper, from many goroutines at once; run with -race. Each
// render must see only its own variables and history.
func TestConcurrentRender(t *testing.T) {
	fsys := fstest.MapFS{
		"chat.hbs":    {Data: []byte(`{{> header}}{{history}}{{#user name=who}}{{q}}{{media url=img}}{{/user}}{{role "assistant"}}{{#each xs}}{{this}},{{/each}}`)},
		"_header.hbs": {Data: []byte(`{{#system}}You are {{bot}}.{{/system}}`)},
	}
	tpl, err := engine.NewSet(handlebars.New()).ParseFS(fsys, "chat.hbs")
	require.NoError(t, err)
	fixture.Concurrently(t, 64, 20, func(i, j int) error {
		s := fmt.Sprint(i, "-", j)
		hist := []chat.Message{chat.Text(chat.RoleUser, "h"+s)}
		msgs, err := tpl.Messages(context.Background(), map[string]any{
			"bot": "b" + s, "who": "w" + s, "q": "q" + s, "img": "https://x/" + s + ".png", "xs": []string{s, s},
		}, engine.History(hist))
		if err != nil {
			return err
		}
		want := []chat.Message{
			chat.Text(chat.RoleSystem, "You are b"+s+"."),
			hist[0],
			{Role: chat.RoleUser, Name: "w" + s, Content: []chat.Part{chat.TextPart("q" + s), {Type: chat.PartImage, URL: "https://x/" + s + ".png"}}},
			chat.Text(chat.RoleAssistant, s+","+s+","),
		}
		if !equalMsgs(want, msgs) {
			return fmt.Errorf("render %s:\nwant %s\ngot  %s", s, show(want), show(msgs))
		}
		return nil
	})
}
