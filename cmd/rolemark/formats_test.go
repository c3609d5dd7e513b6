package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
)

// Every chat format rolemark formats lists is a --format value, printing
// the preset's prompt with the generation prompt.
func TestEveryChatFormat(t *testing.T) {
	msgs := []chat.Message{chat.Text(chat.RoleUser, "Grüß dich, <model>!"), chat.Text(chat.RoleAssistant, "Hallo."), chat.Text(chat.RoleUser, "2+2?")}
	const markup = `<message role="user">Grüß dich, &lt;model&gt;!</message><message role="assistant">Hallo.</message><message role="user">2+2?</message>`
	for _, name := range chatformat.Names() {
		t.Run(name, func(t *testing.T) {
			f, ok := chatformat.Lookup(name)
			require.True(t, ok)
			want, err := f.Render(msgs, chatformat.GenerationPrompt())
			require.NoError(t, err)
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"parse", "--format", name, "-"}, strings.NewReader(markup), &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			assert.Equal(t, want, out.String())
		})
	}
}

// TestFormatsAligned: rolemark formats prints each name and its
// description in two columns; "anthropic-request", longer than the
// column, ran into its description.
func TestFormatsAligned(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"formats"}, nil, &out, &errOut), errOut.String())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Greater(t, len(lines), 20)
	col := -1
	for _, l := range lines {
		name, _, ok := strings.Cut(l, " ")
		require.True(t, ok, l)
		start := len(l) - len(strings.TrimLeft(l[len(name):], " "))
		if col < 0 {
			col = start
		}
		assert.Equal(t, col, start, "%q", l)
		assert.Greater(t, start, len(name)+1, "%q: at least two spaces", l)
	}
}
