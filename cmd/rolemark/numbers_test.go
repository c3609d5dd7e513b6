package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDataIntegersPrintAsWritten: a number the JSON data writes as an
// integer reaches the template as an int, as YAML front matter and case
// files give it, so that 1000000 prints as written in every engine
// (encoding/json's float64 printed 1e+06) and the jinja engine reads it
// as Python's json.loads does (5 ~ "" is "5", tojson 1000000, [5]),
// from --vars, --data, a typed --var and the rows of batch. A number
// written with a fraction or an exponent stays a float.
func TestDataIntegersPrintAsWritten(t *testing.T) {
	dir := t.TempDir()
	vars := filepath.Join(dir, "vars.json")
	require.NoError(t, os.WriteFile(vars, []byte(`{"n": 1000000, "id": 1732700000, "neg": -0, "f": 2.5, "e": 1e3, "big": 12345678901234567890}`), 0o644))
	for _, tc := range []struct{ file, src, want string }{
		{"a.hbs", `{{role "user"}}{{n}} {{id}} {{neg}} {{f}} {{e}} {{big}}`, "1000000 1732700000 0 2.5 1000 1.2345678901234567e+19"},
		{"a.tmpl", `{{role "user"}}{{.n}} {{.id}} {{.neg}} {{.f}} {{.e}} {{.big}}`, "1000000 1732700000 0 2.5 1000 1.2345678901234567e+19"},
		{"a.pongo2", `{{ role("user") }}{{ n }} {{ id }} {{ neg }} {{ f }} {{ e }} {{ big }}`, "1000000 1732700000 0 2.5 1000 1.2345678901234567e+19"},
		{"a.j2", `{{ role("user") }}{{ n }} {{ id }} {{ neg }} {{ f }} {{ e }} {{ big }}`, "1000000 1732700000 0 2.5 1000 1.2345678901234567e+19"},
		// as Jinja2 renders it with json.loads's values, but for e: the
		// jinja engine reads a whole float64 as an int (jinja's number), so
		// 1e3 is 1000 where Python's json.loads gives 1000.0
		{"b.j2", `{{ role("user") }}{{ n ~ "" }} {{ [n, f, e] }} {{ {"n": n, "f": f}|tojson }} {{ n // 3 }} {{ e ~ "" }} {{ n / 4 }}`,
			`1000000 [1000000, 2.5, 1000] {"f": 2.5, "n": 1000000} 333333 1000 250000.0`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			file := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(file, []byte(tc.src), 0o644))
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"render", "--format", "markup", "--vars", vars, file}, strings.NewReader(""), &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			assert.Equal(t, `<message role="user">`+tc.want+"</message>\n", out.String())
		})
	}

	t.Run("typed --var", func(t *testing.T) {
		file := filepath.Join(dir, "c.j2")
		require.NoError(t, os.WriteFile(file, []byte("---\ninput:\n  schema:\n    n: integer\n---\n{{ role(\"user\") }}{{ n ~ \"\" }} {{ n }}"), 0o644))
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"render", "--format", "markup", "--var", "n=2000000", file}, strings.NewReader(""), &out, &errOut)
		require.Equal(t, 0, code, errOut.String())
		assert.Equal(t, "<message role=\"user\">2000000 2000000</message>\n", out.String())
	})

	t.Run("batch", func(t *testing.T) {
		file := filepath.Join(dir, "d.j2")
		require.NoError(t, os.WriteFile(file, []byte(`{{ role("user") }}row {{ id }}: {{ [id] }}`), 0o644))
		code, out, errOut := runBatch(t, "{\"id\": 1234567}\n{\"id\": 7.5}\n", "--in", "-", "--in-format", "jsonl", file)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, `{"messages":[{"role":"user","content":"row 1234567: [1234567]"}]}`+"\n"+
			`{"messages":[{"role":"user","content":"row 7.5: [7.5]"}]}`+"\n", out)
	})
}
