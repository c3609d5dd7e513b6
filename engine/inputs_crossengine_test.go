package engine_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestInputsAcrossEngines: declared inputs (defaults, required, types,
// optional inputs left out) behave the same in every engine, because they
// are checked before any engine runs.
func TestInputsAcrossEngines(t *testing.T) {
	const fm = "---\ninput:\n  schema:\n    name: string\n    n?: integer\n    note?: string\n  default:\n    n: 2\n---\n"
	bodies := map[string]string{
		"t.hbs":    `{{role "user"}}{{name}} {{n}}{{#if note}} {{note}}{{/if}}`,
		"t.j2":     `{{ role("user") }}{{ name }} {{ n }}{% if note %} {{ note }}{% endif %}`,
		"t.pongo2": `{{ role("user") }}{{ name }} {{ n }}{% if note %} {{ note }}{% endif %}`,
		"t.tmpl":   `{{role "user"}}{{.name}} {{.n}}{{if .note}} {{.note}}{{end}}`,
	}
	tests := []struct {
		name    string
		vars    map[string]any
		want    string // the user message's text
		wantErr string // the error after "FILE:"
	}{
		{name: "default fills", vars: map[string]any{"name": "Ann"}, want: "Ann 2"},
		{name: "caller wins", vars: map[string]any{"name": "Ann", "n": 3, "note": "<hi>"}, want: "Ann 3 <hi>"},
		{name: "required missing", vars: nil, wantErr: `4:5: input "name" is required but not supplied`},
		{name: "wrong type", vars: map[string]any{"name": 7}, wantErr: `4:5: input "name" must be a string, not number`},
		{name: "wrong type of an optional", vars: map[string]any{"name": "Ann", "n": "two"}, wantErr: `5:5: input "n" must be an integer, not string`},
		{name: "null required", vars: map[string]any{"name": nil}, wantErr: `4:5: input "name" must be a string, not null`},
	}
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for file, body := range bodies {
				tpl, err := set.ParseFS(mapFS(file, fm+body), file)
				require.NoError(t, err, file)
				msgs, err := tpl.Messages(context.Background(), tc.vars)
				if tc.wantErr != "" {
					assert.EqualError(t, err, file+":"+tc.wantErr, file)
					continue
				}
				require.NoError(t, err, file)
				assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tc.want)}, msgs, file)
			}
		})
	}
}

func mapFS(name, src string) fstest.MapFS {
	return fstest.MapFS{name: {Data: []byte(src)}}
}
