package option

import (
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/stretchr/testify/assert"
)

type opt func(*Settings)

func TestApply(t *testing.T) {
	tools := []chat.Tool{{Name: "a"}}
	vars := map[string]any{"x": 1}
	tests := []struct {
		name string
		opts []opt
		want Settings
	}{
		{"none", nil, Settings{}},
		{"nil option", []opt{nil}, Settings{}},
		{"in order", []opt{
			func(s *Settings) { s.AddGenerationPrompt = true },
			func(s *Settings) { s.Tools = tools },
			func(s *Settings) { s.Vars = vars },
			func(s *Settings) { s.AddGenerationPrompt = false; s.ContinueFinal = true },
			func(s *Settings) { s.AllowSpecialTokens = true },
		}, Settings{ContinueFinal: true, Tools: tools, Vars: vars, AllowSpecialTokens: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Apply(tt.opts))
			// A second call starts from zero settings, not the last call's.
			assert.Equal(t, Settings{}, Apply([]opt{func(*Settings) {}}))
		})
	}
}

// TestApplyAllocatesNothing: options are applied without a Settings on the
// heap per call (one per rendering before).
func TestApplyAllocatesNothing(t *testing.T) {
	for _, opts := range [][]opt{nil, {func(s *Settings) { s.AddGenerationPrompt = true }}} {
		var s Settings
		n := testing.AllocsPerRun(100, func() { s = Apply(opts) })
		assert.Zero(t, n, "%d options", len(opts))
		assert.Equal(t, len(opts) == 1, s.AddGenerationPrompt)
	}
}
