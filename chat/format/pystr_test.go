package format

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPyStrings(t *testing.T) {
	assert.Equal(t, "x", pyTrim("\u3000\x1c\x1d\x1e\x1f \t\n\v\f\r\u0085\u00a0\u2028x\u2029\u202f\u205f"))
	assert.Equal(t, "x\u200b", pyTrim(" x\u200b "), "U+200B is not white space in Python")
	assert.Equal(t, "x  ", pyTrimLeft("  x  "))
	assert.Equal(t, "Tool", pyTitle("tool"))
	assert.Equal(t, "Tool_Results", pyTitle("tool_results"))
	assert.Equal(t, "A1B", pyTitle("a1b"))
	assert.Equal(t, "Assistant", pyTitle("ASSISTANT"))
}
