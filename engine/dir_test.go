package engine_test

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

func TestLoadDir(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/greet.tmpl":          {Data: []byte(`{{role "user"}}{{template "sig" .}}`)},
		"prompts/_sig.tmpl":           {Data: []byte(`Hi {{.name}}`)},
		"prompts/support/refund.tmpl": {Data: []byte("---\ninput:\n  default: {order: 7}\n---\n{{role \"user\"}}Refund {{.order}}")},
		"prompts/README.md":           {Data: []byte(`# not a prompt`)},
	}
	d, err := engine.NewSet(gotmpl.New()).LoadDir(fsys, "prompts")
	require.NoError(t, err)
	assert.Equal(t, []string{"greet", "support/refund"}, d.Names())
	tpl, ok := d.Template("support/refund")
	require.True(t, ok)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Refund 7")}, msgs)
	tpl, _ = d.Template("greet")
	msgs, err = tpl.Messages(context.Background(), map[string]any{"name": "Ann"})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Hi Ann")}, msgs)
	_, ok = d.Template("_sig")
	assert.False(t, ok, "partials are not prompts")
}

func TestLoadDirErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"a.tmpl":   {Data: []byte(`{{.x`)},
		"b.tmpl":   {Data: []byte("---\nmodel: [\n---\n")},
		"c.tmpl":   {Data: []byte(`ok`)},
		"c.gotmpl": {Data: []byte(`ok`)},
	}
	_, err := engine.NewSet(gotmpl.New()).LoadDir(fsys, ".")
	require.Error(t, err)
	assert.Equal(t, "a.tmpl:1:1: unclosed action\n"+
		"b.tmpl:2:8: front matter: did not find expected node content\n"+
		`c.tmpl: prompt "c" is also defined by c.gotmpl`, err.Error())
	var ee *engine.Error
	assert.True(t, errors.As(err, &ee))
}

// TestLoadDirOfAFile: LoadDir reads a directory; given a file's path it
// said nothing and returned a Dir of that one file, or an empty Dir for a
// file no engine claims. Either is a mistake the caller should hear of.
func TestLoadDirOfAFile(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/greet.tmpl": {Data: []byte(`{{role "user"}}hi`)},
		"prompts/README.md":  {Data: []byte(`# not a prompt`)},
	}
	for _, tc := range []struct{ dir, want string }{
		{"prompts/greet.tmpl", "prompts/greet.tmpl: not a directory (LoadDir reads a directory of templates; ParseFS reads one file)"},
		{"prompts/README.md", "prompts/README.md: not a directory (LoadDir reads a directory of templates; ParseFS reads one file)"},
		{"nothere", "open nothere: file does not exist"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			d, err := engine.NewSet(gotmpl.New()).LoadDir(fsys, tc.dir)
			assert.Nil(t, d)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}
