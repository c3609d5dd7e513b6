package driver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// dollar is a toy engine: its templates are plain text in which $name
// inserts the variable name, escaped, and $history places the history.
type dollar struct{}

func (dollar) Name() string         { return "dollar" }
func (dollar) Extensions() []string { return []string{".dollar"} }

func (dollar) Compile(name, src string, cfg driver.Config) (driver.Compiled, error) {
	if strings.Contains(src, "$$") {
		return nil, &driver.Error{Template: name, Line: 1, Err: errors.New("$$ is not a variable")}
	}
	return dollarTemplate(src), nil
}

type dollarTemplate string

func (t dollarTemplate) Execute(ctx context.Context, w io.Writer, r *driver.Request) error {
	out := strings.ReplaceAll(string(t), "$history", driver.HistoryMarker)
	for k, v := range r.Vars {
		out = strings.ReplaceAll(out, "$"+k, roleparse.EscapeValue(v)) // every value escaped
	}
	_, err := io.WriteString(w, out)
	return err
}

// An adapter implements driver.Engine; callers use it through package
// engine like any other.
func Example() {
	set := engine.NewSet(dollar{})
	tpl, err := set.Parse("dollar", "t.dollar", `<message role="system">Be brief.</message>$history<message role="user">$q</message>`)
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs, err := tpl.Messages(context.Background(), map[string]any{"q": "a < b?"},
		engine.History([]chat.Message{chat.Text(chat.RoleUser, "hi"), chat.Text(chat.RoleAssistant, "hello")}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range msgs {
		fmt.Printf("%s: %s\n", m.Role, m.Content[0].Text)
	}
	_, err = set.Parse("dollar", "bad.dollar", "$$")
	fmt.Println(err)
	// Output:
	// system: Be brief.
	// user: hi
	// assistant: hello
	// user: a < b?
	// bad.dollar:1: $$ is not a variable
}
