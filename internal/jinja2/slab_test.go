package jinja2_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/jinja2"
)

func TestSlab(t *testing.T) {
	var s jinja2.Slab
	a := s.Take(2)
	require.Len(t, a, 2)
	assert.Equal(t, 2, cap(a), "an append to a taken slice must not reach its neighbour")
	assert.Equal(t, 64, s.Cap(), "the first backing array holds 64")
	a[0], a[1] = jinja2.IntV(1), jinja2.IntV(2)
	b := s.Take(62)
	assert.Equal(t, jinja2.Value{}, b[0], "taken values are zero")
	b[61] = jinja2.IntV(62)

	c := s.Take(1) // the array is full: a new one, twice as large
	assert.Equal(t, 128, s.Cap())
	c[0] = jinja2.IntV(3)
	assert.Equal(t, []jinja2.Value{jinja2.IntV(1), jinja2.IntV(2)}, a, "slices taken before keep the old array")
	assert.Equal(t, jinja2.IntV(62), b[61])

	big := s.Take(300) // larger than twice the array: as large as asked
	assert.Len(t, big, 300)
	assert.Equal(t, 300, s.Cap())
	big[0] = jinja2.IntV(9)

	s.Reset()
	assert.Equal(t, jinja2.Value{}, big[0], "Reset zeroes the current array's values")
	d := s.Take(1)
	assert.Equal(t, jinja2.Value{}, d[0])
	assert.Equal(t, 300, s.Cap(), "Reset keeps the array")

	m := jinja2.MakeSlab(10)
	assert.Equal(t, 10, m.Cap())
	assert.Len(t, m.Take(10), 10)
	assert.Equal(t, 10, m.Cap(), "ten fit in the array made for them")
	m.Take(1)
	assert.Equal(t, 64, m.Cap())
}
