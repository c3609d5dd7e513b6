package engine_test

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestMarkupErrorInPartial: a markup error that a partial writes is placed
// in the partial's file, at the marker or tag that wrote it, in every
// engine; the template's own include is not where the author fixes it.
func TestMarkupErrorInPartial(t *testing.T) {
	fsys := fstest.MapFS{
		"p/t.hbs":      {Data: []byte("{{role \"system\"}}be brief\n{{> q}}\n")},
		"p/_q.hbs":     {Data: []byte("{{role \"user\"}}hi\n{{role \"wizard\"}}x")},
		"p/t.j2":       {Data: []byte("{{ role(\"system\") }}be brief\n{% include \"_q.j2\" %}\n")},
		"p/_q.j2":      {Data: []byte("{{ role(\"user\") }}hi\n😀 <message role=\"wizard\">x</message>")},
		"p/t.pongo2":   {Data: []byte("{{ role(\"system\") }}be brief\n{% include \"_q.pongo2\" %}\n")},
		"p/_q.pongo2":  {Data: []byte("{{ role(\"user\") }}hi\n{{ role(\"wizard\") }}x")},
		"p/t.tmpl":     {Data: []byte("{{role \"system\"}}be brief\n{{template \"q\" .}}\n")},
		"p/_q.tmpl":    {Data: []byte("{{role \"user\"}}hi\n{{role \"wizard\"}}x")},
		"p/fm.hbs":     {Data: []byte("{{role \"system\"}}be brief\n{{> fmq}}\n")},
		"p/_fmq.hbs":   {Data: []byte("---\nmodel: x\n---\n{{role \"wizard\"}}x")},
		"p/twice.hbs":  {Data: []byte("{{role \"system\"}}be brief\n{{> ok}}{{> q}}\n")},
		"p/_ok.hbs":    {Data: []byte("{{role \"user\"}}fine")},
		"p/inline.hbs": {Data: []byte("{{role \"system\"}}be brief\n{{role \"wizard\"}}x\n{{> ok}}")},
	}
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	for _, tc := range []struct {
		file, wantFile string
		line, col      int
	}{
		{"p/t.hbs", "p/_q.hbs", 2, 1},
		{"p/t.j2", "p/_q.j2", 2, 17},
		{"p/t.pongo2", "p/_q.pongo2", 2, 1},
		{"p/t.tmpl", "p/_q.tmpl", 2, 1},
		// a partial with front matter keeps the place of its include
		{"p/fm.hbs", "p/fm.hbs", 2, 1},
		{"p/twice.hbs", "p/_q.hbs", 2, 1},
		{"p/inline.hbs", "p/inline.hbs", 2, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, tc.file)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), nil)
			var ee *engine.Error
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, tc.wantFile, ee.Template, "%v", err)
			assert.Equal(t, []int{tc.line, tc.col}, []int{ee.Line, ee.Col}, "%v", err)
		})
	}
}
