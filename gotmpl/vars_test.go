package gotmpl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
)

// TestVarsColumnsInRunes: the place of a variable's first use counts
// columns in runes, as every rolemark position does, where text/template
// counts bytes: "Grüße 😀 " is 8 runes and 13 bytes.
func TestVarsColumnsInRunes(t *testing.T) {
	c, err := gotmpl.New().Compile("t.tmpl", "{{role \"user\"}}\nGrüße 😀 {{.name}} {{$.plan}}", driver.Config{})
	require.NoError(t, err)
	vl, ok := c.(driver.VarLister)
	require.True(t, ok)
	assert.Equal(t, []driver.Var{
		{Name: "name", Template: "t.tmpl", Line: 2, Col: 11},
		{Name: "plan", Template: "t.tmpl", Line: 2, Col: 22},
	}, vl.Vars())
}
