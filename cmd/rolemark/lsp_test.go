package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLSPFuncsAreKnown checks that the engine of each name completion
// offers knows it: a template that uses it parses and checks without an
// error that says the name is unknown or not allowed, where one that uses a
// made-up name does not.
func TestLSPFuncsAreKnown(t *testing.T) {
	set := newSet()
	use := map[string]map[string]string{ // engine, kind: the template
		"handlebars": {"helper": "{{NAME x}}"},
		"gotmpl":     {"function": "{{if false}}{{NAME}}{{end}}"},
		"jinja":      {"function": "{% if false %}{{ NAME() }}{% endif %}", "filter": "{{ 1|NAME }}"},
		"pongo2":     {"function": "{% if false %}{{ NAME() }}{% endif %}", "filter": "{% if false %}{{ 1|NAME }}{% endif %}"},
	}
	// refused is how the engines say that a name is unknown or not
	// allowed; other errors (a missing argument) are the template's.
	refused := regexp.MustCompile(`unknown (helper|function|filter)|not defined|No filter named|not allowed|does not exist`)
	unknown := func(eng, kind, name string) string {
		tpl, err := set.Parse(eng, "t", strings.ReplaceAll(use[eng][kind], "NAME", name))
		if err == nil {
			err = tpl.Check(context.Background())
		}
		if err == nil || !refused.MatchString(err.Error()) {
			return ""
		}
		return err.Error()
	}
	for eng, funcs := range lspFuncs() {
		require.Contains(t, use, eng)
		for kind := range use[eng] {
			assert.NotEmpty(t, unknown(eng, kind, "shoutLoudly"), "%s %s: a made-up name is refused", eng, kind)
		}
		for _, f := range funcs {
			assert.Empty(t, unknown(eng, f.Kind, f.Name), "%s %s %s", eng, f.Kind, f.Name)
		}
	}
}
