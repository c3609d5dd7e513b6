package format_test

import (
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

// The golden files hold what each model's real HuggingFace chat template
// renders for a set of conversations; testdata/oracle.py writes them, and
// go test -update runs it (python3 with Jinja2, and the ollama module in
// the Go module cache, as the script's header says).

var update = flag.Bool("update", false, "regenerate testdata/golden by running testdata/oracle.py")

func TestGolden(t *testing.T) {
	if *update {
		cmd := exec.Command("python3", filepath.Join("testdata", "oracle.py"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		t.Logf("%s", out)
	}
	cases, files := fixture.ReadGolden(t, filepath.Join("testdata", "golden"))
	for _, g := range files {
		t.Run(g.Preset, func(t *testing.T) {
			f, ok := format.Lookup(g.Preset)
			require.True(t, ok, "no preset %q", g.Preset)
			for _, res := range g.Results {
				c, ok := cases[res.Name]
				require.True(t, ok, "no case %q", res.Name)
				t.Run(c.Name, func(t *testing.T) {
					opts := []format.Option{format.Tools(c.ChatTools()...), format.AllowSpecialTokens()}
					opts = append(opts, c.Options()...)
					got, err := f.Render(c.ChatMessages(), opts...)
					// AppendRender writes the same after what dst holds,
					// and leaves dst as it was when it fails.
					appended, aerr := f.AppendRender([]byte("before|"), c.ChatMessages(), opts...)
					assert.Equal(t, fmt.Sprint(err), fmt.Sprint(aerr))
					if err == nil {
						assert.Equal(t, "before|"+got, string(appended))
					} else {
						assert.Equal(t, "before|", string(appended))
					}
					var pe *format.PartError
					if errors.As(err, &pe) {
						// The template leaves the part out; the preset
						// refuses rather than drop it.
						assert.True(t, c.HasToolParts(), "%v", err)
						return
					}
					if res.Output != nil {
						require.NoError(t, err)
						assert.Equal(t, *res.Output, got)
						return
					}
					require.Error(t, err, "template raised %s: %s", res.ErrorKind, res.Error)
					if res.ErrorKind == "TemplateError" {
						var fe *format.Error
						require.True(t, errors.As(err, &fe), "want *format.Error, got %T %v", err, err)
						assert.Equal(t, res.Error, fe.Msg)
						return
					}
					assert.True(t, strings.HasPrefix(err.Error(), "format"), err.Error())
				})
			}
		})
	}
}

// Every preset has golden cases, except the ones no HuggingFace template
// exists for.
func TestGoldenCoversPresets(t *testing.T) {
	have := map[string]bool{}
	_, files := fixture.ReadGolden(t, filepath.Join("testdata", "golden"))
	for _, g := range files {
		have[g.Preset] = true
	}
	for _, name := range format.Names() {
		if name == "lazyllm-chat" || name == "qwen" { // no HF template: vectors_test.go
			continue
		}
		assert.True(t, have[name], "preset %s has no golden file", name)
	}
}
