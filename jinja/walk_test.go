package jinja_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
)

// TestPartialsFoundInEveryBody: a literal include is read when the
// template is parsed wherever it stands, so one that names no file fails
// ParseFS inside each kind of statement that has a body.
func TestPartialsFoundInEveryBody(t *testing.T) {
	inc := `{% include "missing.j2" %}`
	for name, src := range map[string]string{
		"top":           inc,
		"if":            `{% if x %}` + inc + `{% endif %}`,
		"elif":          `{% if x %}{% elif y %}` + inc + `{% endif %}`,
		"else of if":    `{% if x %}{% else %}` + inc + `{% endif %}`,
		"for":           `{% for i in x %}` + inc + `{% endfor %}`,
		"else of for":   `{% for i in x %}{% else %}` + inc + `{% endfor %}`,
		"set block":     `{% set s %}` + inc + `{% endset %}`,
		"macro":         `{% macro m() %}` + inc + `{% endmacro %}`,
		"call block":    `{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}` + inc + `{% endcall %}`,
		"filter block":  `{% filter upper %}` + inc + `{% endfilter %}`,
		"with":          `{% with a = 1 %}` + inc + `{% endwith %}`,
		"block":         `{% block b %}` + inc + `{% endblock %}`,
		"autoescape":    `{% autoescape true %}` + inc + `{% endautoescape %}`,
		"nested bodies": `{% if x %}{% for i in x %}{% with %}` + inc + `{% endwith %}{% endfor %}{% endif %}`,
		"role block":    `{% user %}` + inc + `{% enduser %}`,
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.j2": {Data: []byte(src)}}
			_, err := engine.NewSet(jinja.New()).ParseFS(fsys, "t.j2")
			require.ErrorContains(t, err, "missing.j2", src)
		})
	}
}
