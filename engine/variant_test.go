package engine_test

import (
	"context"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
)

func TestSplitVariant(t *testing.T) {
	tests := []struct{ path, name, variant string }{
		{"bank.prompt", "bank", ""},
		{"bank.formal.prompt", "bank", "formal"},
		{"support/bank.formal.prompt", "support/bank", "formal"},
		{"v1.0/bank.formal.prompt", "v1.0/bank", "formal"},
		{"bank.formal.PROMPT", "bank", "formal"},
		{"a.b.c.prompt", "a.b.c", ""}, // Dotprompt's DirStore skips it
		{".formal.prompt", ".formal", ""},
		{"bank..prompt", "bank.", ""},
		{"bank.formal.hbs", "bank.formal", ""}, // variants are Dotprompt's, .prompt only
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			name, variant := engine.SplitVariant(tc.path)
			assert.Equal(t, []string{tc.name, tc.variant}, []string{name, variant})
		})
	}
	assert.Equal(t, "d/bank.formal.prompt", engine.VariantFile("d/bank.prompt", "formal"))
	assert.Equal(t, "d/bank.prompt", engine.VariantFile("d/bank.prompt", ""))
}

func variantFS() fstest.MapFS {
	return fstest.MapFS{
		"p/bank.prompt":             {Data: []byte("{{role \"system\"}}You are a bank manager.\n{{role \"user\"}}{{input}}")},
		"p/bank.formal.prompt":      {Data: []byte("{{role \"system\"}}You are a formal bank manager.\n{{role \"user\"}}{{input}}")},
		"p/bank.terse.prompt":       {Data: []byte("{{input}}")},
		"p/only.draft.prompt":       {Data: []byte("draft")},
		"p/notes.v2.hbs":            {Data: []byte("<message role=\"user\">notes</message>")},
		"p/support/refund.prompt":   {Data: []byte("refund")},
		"p/support/refund.x.prompt": {Data: []byte("refund x")},
	}
}

func TestLoadDirVariants(t *testing.T) {
	d, err := engine.NewSet(handlebars.New()).LoadDir(variantFS(), "p")
	require.NoError(t, err)
	assert.Equal(t, []string{"bank", "notes.v2", "only", "support/refund"}, d.Names())
	assert.Equal(t, []string{"formal", "terse"}, d.Variants("bank"))
	assert.Equal(t, []string{"x"}, d.Variants("support/refund"))
	assert.Empty(t, d.Variants("notes.v2"))

	render := func(tpl *engine.Template) []chat.Message {
		msgs, err := tpl.Messages(context.Background(), map[string]any{"input": "a loan"})
		require.NoError(t, err)
		return msgs
	}
	base, ok := d.Template("bank")
	require.True(t, ok)
	assert.Equal(t, "You are a bank manager.\n", render(base)[0].Text())
	formal, ok := d.Variant("bank", "formal")
	require.True(t, ok)
	assert.Equal(t, "p/bank.formal.prompt", formal.Name())
	assert.Equal(t, "You are a formal bank manager.\n", render(formal)[0].Text())
	same, ok := d.Variant("bank", "")
	require.True(t, ok)
	assert.Same(t, base, same)

	_, ok = d.Template("bank.formal")
	assert.False(t, ok, "a variant is not a prompt of its own")
	_, ok = d.Variant("bank", "casual")
	assert.False(t, ok)
	_, ok = d.Template("only")
	assert.False(t, ok, "only has a variant and no file of its own")
	_, ok = d.Variant("only", "draft")
	assert.True(t, ok)
}

func TestParseFSVariant(t *testing.T) {
	set := engine.NewSet(handlebars.New(), gotmpl.New())
	tpl, err := set.ParseFS(variantFS(), "p/bank.prompt", engine.Variant("formal"))
	require.NoError(t, err)
	assert.Equal(t, "p/bank.formal.prompt", tpl.Name())
	msgs, err := tpl.Messages(context.Background(), map[string]any{"input": "a loan"})
	require.NoError(t, err)
	assert.Equal(t, "You are a formal bank manager.\n", msgs[0].Text())

	tpl, err = set.ParseFS(variantFS(), "p/bank.prompt", engine.Variant(""))
	require.NoError(t, err)
	assert.Equal(t, "p/bank.prompt", tpl.Name())

	_, err = set.ParseFS(variantFS(), "p/bank.prompt", engine.Variant("casual"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "open p/bank.casual.prompt: file does not exist", err.Error())

	_, err = set.ParseFS(variantFS(), "p/bank.prompt", engine.Variant("../x"))
	assert.EqualError(t, err, `p/bank.prompt: variant "../x": a variant's name has no dot or slash`)
}
