package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// A loop over an object of the data (a map, as JSON input decodes to)
// renders the same prompt every time and in every engine: keys in order.
func TestLoopOverMapSameInEveryEngine(t *testing.T) {
	var vars map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"facts": {"plan": "pro", "city": "Oslo", "age": 41, "name": "Ada", "tier": 2}}`), &vars))
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New(), pongo2.New())
	srcs := map[string]string{
		"handlebars": `{{#user}}{{#each facts}}{{@key}}: {{this}}; {{/each}}{{/user}}`,
		"jinja":      `{% user %}{% for k, v in facts.items() %}{{ k }}: {{ v }}; {% endfor %}{% enduser %}`,
		"pongo2":     `{% user %}{% for k, v in facts %}{{ k }}: {{ v }}; {% endfor %}{% enduser %}`,
		"gotmpl":     `{{role "user"}}{{range $k, $v := .facts}}{{$k}}: {{$v}}; {{end}}`,
	}
	const want = "age: 41; city: Oslo; name: Ada; plan: pro; tier: 2;"
	for name, src := range srcs {
		tpl, err := set.Parse(name, "t", src)
		require.NoError(t, err)
		for range 20 {
			msgs, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err, name)
			require.Len(t, msgs, 1, name)
			assert.Equal(t, want, msgs[0].Text(), name)
		}
	}
}
