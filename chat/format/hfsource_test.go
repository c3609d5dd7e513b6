package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The prepared source keeps every line of the template where it was, so
// that the engine's errors name the template's lines.
func TestPrepareSourceKeepsLines(t *testing.T) {
	var sources []struct {
		File string `json:"file"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "hf", "sources.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sources))
	for _, s := range sources {
		src, err := os.ReadFile(filepath.Join("testdata", "hf", "templates", s.File))
		require.NoError(t, err)
		norm := strings.TrimSuffix(strings.ReplaceAll(strings.ReplaceAll(string(src), "\r\n", "\n"), "\r", "\n"), "\n")
		out, _, perr := prepareSource(string(src))
		require.Nil(t, perr, s.File)
		assert.Equal(t, strings.Count(norm, "\n"), strings.Count(out, "\n"), s.File)
	}
}

func TestEngineErrorLine(t *testing.T) {
	src := "{%- if true %}\n  {{- 'a' }}\n{# a\ncomment #}\n{% endif %}\n{{ 'a' + }}\n"
	_, err := NewTemplate(src, WithName("t.jinja"))
	var te *TemplateError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 6, te.Line, err.Error())
}

// Columns count runes, as every error of rolemark's does, in the source
// reader's errors and in the refusal of an unsupported construct.
func TestTemplateErrorColumnsCountRunes(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
	}{
		{"unsupported construct after non-ASCII text", "ü\n{# é #}{{ dict(a=1, b=2) }}", 2, 11},
		{"unterminated comment after non-ASCII text", "é€ {# open", 1, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTemplate(tc.src, WithName("t.jinja"))
			var te *TemplateError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{te.Line, te.Col}, err.Error())
		})
	}
}
