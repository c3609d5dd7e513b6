package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/roleparse"
)

// echo is a test engine whose templates print their source, with "$h"
// replaced by the history, "$v" by the variable v as it is, and "!" making
// the render panic.
type echo struct{}

func (echo) Name() string         { return "echo" }
func (echo) Extensions() []string { return []string{".echo", ".ECHO2"} }
func (echo) Compile(name, src string, cfg driver.Config) (driver.Compiled, error) {
	if src == "bad" {
		return nil, errors.New("bad template")
	}
	if src == "panic" {
		panic("compile panic")
	}
	return echoTpl(src), nil
}

type echoTpl string

func (t echoTpl) Execute(ctx context.Context, w io.Writer, r *driver.Request) error {
	switch t {
	case "!":
		panic("render panic")
	case "$h":
		_, err := io.WriteString(w, driver.HistoryMarker)
		return err
	}
	_, err := io.WriteString(w, strings.ReplaceAll(string(t), "$v", fmt.Sprint(r.Vars["v"])))
	return err
}

func TestHistoryPlacement(t *testing.T) {
	h := []chat.Message{chat.Text(chat.RoleUser, "old q"), chat.Text(chat.RoleAssistant, "old a")}
	sys := chat.Text(chat.RoleSystem, "S")
	q := chat.Text(chat.RoleUser, "Q")
	a := chat.Text(chat.RoleAssistant, "A")
	tests := []struct {
		name string
		src  string
		want []chat.Message
	}{
		{"before last user", `<message role="system">S</message><message role="user">Q</message>`, []chat.Message{sys, h[0], h[1], q}},
		{"before the last of several users", `<message role="user">Q</message><message role="assistant">A</message><message role="user">Q</message>`, []chat.Message{q, a, h[0], h[1], q}},
		{"at the end without a user message", `<message role="system">S</message>`, []chat.Message{sys, h[0], h[1]}},
		{"placed by the template", `$h`, h},
	}
	set := engine.NewSet(echo{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("echo", "t", tc.src)
			require.NoError(t, err)
			got, err := tpl.Messages(context.Background(), nil, engine.History(h))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSetErrors(t *testing.T) {
	set := engine.NewSet(echo{})
	_, err := set.Parse("nope", "t", "x")
	assert.EqualError(t, err, `t: unknown engine "nope"; known: echo`)

	_, err = set.Parse("echo", "t", "bad")
	var ee *engine.Error
	require.ErrorAs(t, err, &ee)
	assert.EqualError(t, err, "t: bad template")

	_, err = set.Parse("echo", "t", "panic")
	var pe *engine.PanicError
	require.ErrorAs(t, err, &pe)
	assert.EqualError(t, err, "t: template engine panicked: compile panic")

	tpl, err := set.Parse("echo", "t", "!")
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil)
	require.ErrorAs(t, err, &pe)
	assert.EqualError(t, err, "t: template engine panicked: render panic")

	tpl, err = set.Parse("echo", "t", "<message role=\"user\">x</message>\n<message role=\"wizard\">")
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil)
	var re *roleparse.Error
	require.ErrorAs(t, err, &re, "the markup error is found through the engine error")
	assert.Equal(t, 2, re.Line)
	assert.Equal(t, 15, re.Col, "the opening quote of the role value")
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "t", ee.Template)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tpl.Messages(ctx, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestEngineFor(t *testing.T) {
	set := engine.NewSet(echo{})
	for _, name := range []string{"a.echo", "dir/b.ECHO", "c.echo2"} {
		e, err := set.EngineFor(name)
		require.NoError(t, err, name)
		assert.Equal(t, "echo", e.Name())
	}
	_, err := set.EngineFor("x.txt")
	assert.EqualError(t, err, `x.txt: no engine for extension ".txt"`)
	_, err = set.EngineFor("README")
	assert.EqualError(t, err, `README: no file extension to choose an engine by`)

	fsys := fstest.MapFS{"p/a.echo": {Data: []byte(`<message role="user">hi</message>`)}}
	tpl, err := set.ParseFS(fsys, "p/a.echo")
	require.NoError(t, err)
	assert.Equal(t, "p/a.echo", tpl.Name())
	assert.Equal(t, "echo", tpl.EngineName())
	out, err := tpl.Render(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, `<message role="user">hi</message>`, out)
	_, err = set.ParseFS(fsys, "p/missing.echo")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestParseOptions(t *testing.T) {
	set := engine.NewSet(echo{}).Option(engine.ParseOptions(roleparse.Roles("narrator")))
	tpl, err := set.Parse("echo", "t", `<message role="Narrator">Once</message>`)
	require.NoError(t, err)
	got, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text("narrator", "Once")}, got)
}

// TestMarkupErrorPosition: a problem in the rendered markup is reported at
// the place in the template source that wrote it, when the rendered text
// around the problem appears exactly once in the source; otherwise at its
// place in the rendered markup, said so.
func TestMarkupErrorPosition(t *testing.T) {
	tests := []struct {
		name, src, v, want string
	}{
		{"literal tag", "---\nname: x\n---\n<message role=\"user\">$v</message>\n  <message role=\"wizard\">x</message>", "three\nmore\nlines",
			`t:5:17: rendered markup: unknown role "wizard"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
		{"text before a tag", "Preamble.\n<message role=\"user\">hi</message>", "",
			`t:1:1: rendered markup: text outside a message: "Preamble.\n"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
		{"not in the source", "<message role=\"user\">a</message>$v", "stray",
			`t: rendered markup: line 1, col 33: text outside a message: "stray"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := engine.NewSet(echo{}).Parse("echo", "t", tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), map[string]any{"v": tc.v})
			assert.EqualError(t, err, tc.want)
			var re *roleparse.Error
			assert.ErrorAs(t, err, &re)
		})
	}
}

// promptEcho is echo claiming Dotprompt's .prompt extension.
type promptEcho struct{ echo }

func (promptEcho) Name() string         { return "promptecho" }
func (promptEcho) Extensions() []string { return []string{".prompt"} }

// TestPromptFilesOneEngine: a .prompt file goes to the engine EngineFor
// names, in ParseFS and LoadDir alike, so "later engines win" holds for it
// too (issue 11, defect 5: ParseFS and LoadDir hard-coded handlebars).
func TestPromptFilesOneEngine(t *testing.T) {
	fsys := fstest.MapFS{"p/x.prompt": {Data: []byte(`<message role="user">hi</message>`)}}
	for _, tc := range []struct {
		engines []driver.Engine
		want    string
	}{
		{[]driver.Engine{handlebars.New(), promptEcho{}}, "promptecho"},
		{[]driver.Engine{promptEcho{}, handlebars.New()}, "handlebars"},
		{[]driver.Engine{handlebars.New()}, "handlebars"},
	} {
		set := engine.NewSet(tc.engines...)
		e, err := set.EngineFor("x.prompt")
		require.NoError(t, err)
		assert.Equal(t, tc.want, e.Name())
		tpl, err := set.ParseFS(fsys, "p/x.prompt")
		require.NoError(t, err)
		assert.Equal(t, tc.want, tpl.EngineName(), "ParseFS")
		d, err := set.LoadDir(fsys, "p")
		require.NoError(t, err)
		tpl, _ = d.Template("x")
		assert.Equal(t, tc.want, tpl.EngineName(), "LoadDir")
	}
	_, err := engine.NewSet(echo{}).ParseFS(fsys, "p/x.prompt")
	assert.EqualError(t, err, `p/x.prompt: no engine for extension ".prompt"`)
}
