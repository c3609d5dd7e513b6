package preview

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSideBySide(t *testing.T) {
	rows := sideBySide("a\nHi Ada.\nc\nold", "a\nHi Grace.\nc\nnew\nmore")
	assert.Equal(t, []diffRow{
		{Kind: "same", A: diffLine{N: 1, Pre: "a"}, B: diffLine{N: 1, Pre: "a"}},
		{Kind: "change", A: diffLine{N: 2, Pre: "Hi ", Mid: "Ada", Post: "."}, B: diffLine{N: 2, Pre: "Hi ", Mid: "Grace", Post: "."}},
		{Kind: "same", A: diffLine{N: 3, Pre: "c"}, B: diffLine{N: 3, Pre: "c"}},
		{Kind: "change", A: diffLine{N: 4, Mid: "old"}, B: diffLine{N: 4, Mid: "new"}},
		{Kind: "ins", B: diffLine{N: 5, Mid: "more"}},
	}, rows)

	rows = sideBySide("x\ny", "y")
	assert.Equal(t, []diffRow{
		{Kind: "del", A: diffLine{N: 1, Mid: "x"}},
		{Kind: "same", A: diffLine{N: 2, Pre: "y"}, B: diffLine{N: 1, Pre: "y"}},
	}, rows)
}

func TestMarkedKeepsRunesWhole(t *testing.T) {
	a, b := marked("café", "cafè")
	assert.Equal(t, diffLine{Pre: "caf", Mid: "é"}, a)
	assert.Equal(t, diffLine{Pre: "caf", Mid: "è"}, b)
	a, b = marked("éa", "èa")
	assert.Equal(t, diffLine{Mid: "é", Post: "a"}, a)
	assert.Equal(t, diffLine{Mid: "è", Post: "a"}, b)
}
