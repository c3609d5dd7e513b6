package chattemplate

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/internal/jinja2"
)

// The two readers of % specifiers, cutsFormat (a precision) and
// makesChars (a c conversion), on one percentSpec.
func TestPercentSpec(t *testing.T) {
	tests := []struct {
		format      string
		spec        string
		conv        int
		cuts, chars bool
	}{
		{format: "%s", spec: "", conv: 1},
		{format: "%-3.2s", spec: "-3.2", conv: 5, cuts: true},
		{format: "%(name).1r", spec: ".1", conv: 9, cuts: true},
		{format: "%(a.b)s", spec: "", conv: 6},
		{format: "%-3c", spec: "-3", conv: 3, chars: true},
		{format: "%(n)c", spec: "", conv: 4, chars: true},
		{format: "%%c", spec: "", conv: 1},
		{format: "%(unclosed", spec: "", conv: 10},
		{format: "%", spec: "", conv: 1},
		{format: "{0!r:.2}", spec: "", conv: -1, cuts: true},
		{format: "{:c}", spec: "", conv: -1, chars: true},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			if tt.conv >= 0 {
				spec, conv := percentSpec(tt.format, 0)
				assert.Equal(t, tt.spec, spec)
				assert.Equal(t, tt.conv, conv)
			}
			c := &jinja2.Const{Value: jinja2.StrV(tt.format)}
			assert.Equal(t, tt.cuts, cutsFormat(c))
			assert.Equal(t, tt.chars, makesChars(c))
		})
	}
}
