package pystr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPyStrings(t *testing.T) {
	assert.Equal(t, "x", Trim("\u3000\x1c\x1d\x1e\x1f \t\n\v\f\r\u0085\u00a0\u2028x\u2029\u202f\u205f"))
	assert.Equal(t, "x\u200b", Trim(" x\u200b "), "U+200B is not white space in Python")
	assert.Equal(t, "x  ", TrimLeft("  x  "))
	assert.Equal(t, "Tool", Title("tool"))
	assert.Equal(t, "Tool_Results", Title("tool_results"))
	assert.Equal(t, "A1B", Title("a1b"))
	assert.Equal(t, "Assistant", Title("ASSISTANT"))
}
