package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckSeveral: text outside a message does not hide a later mistake
// of the markup; rolemark check reports each, at its place, in every
// engine, and the language server the same.
func TestCheckSeveral(t *testing.T) {
	outside := `6:1: rendered markup: text outside a message: "Be brief.\n"; expected <message role="…">, whitespace or a comment (or parse with roleparse.Loose)`
	// the second text outside a message, after a literal </message>, on
	// the file's line 8
	outside8 := "8" + outside[1:]
	tests := []struct {
		file, body, second string
		again              bool // line 8 is text outside a message too
	}{
		{"several.hbs", "<message role=\"user\">{{name}}</message>\nBe brief.\n<message role=\"wizard\">x</message>", "9:15", true},
		{"several.j2", "<message role=\"user\">{{ name }}</message>\nBe brief.\n<message role=\"wizard\">x</message>", "9:15", true},
		{"several.pongo2", "<message role=\"user\">{{ name }}</message>\nBe brief.\n<message role=\"wizard\">x</message>", "9:15", true},
		{"several.tmpl", "<message role=\"user\">{{.name}}</message>\nBe brief.\n<message role=\"wizard\">x</message>", "9:15", true},
		{"several_marker.j2", "{{ role(\"user\") }}{{ name }}\nBe brief.\n{{ role(\"wizard\") }}x", "9:1", false},
	}
	dir := t.TempDir()
	want := map[string][]string{}
	for _, tc := range tests {
		// the template's first line is text outside any message
		require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(classHeader+"Be brief.\n"+tc.body), 0o644))
		want[tc.file] = []string{outside}
		if tc.again {
			want[tc.file] = append(want[tc.file], outside8)
		}
		want[tc.file] = append(want[tc.file], tc.second+": rendered markup: "+unknownWizard)
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var out, errOut bytes.Buffer
			name := filepath.Join(dir, tc.file)
			code := run(context.Background(), []string{"check", name}, nil, &out, &errOut)
			assert.Equal(t, 1, code)
			assert.Empty(t, errOut.String())
			wantOut := ""
			for _, w := range want[tc.file] {
				wantOut += name + ":" + w + "\n"
			}
			assert.Equal(t, wantOut, out.String())
		})
	}
	got := lspProblems(t, dir)
	for file, w := range want {
		assert.Equal(t, w, got[file], "rolemark lsp on %s", file)
	}
}
