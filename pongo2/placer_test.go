package pongo2

import (
	"math/rand/v2"
	"testing"

	"github.com/rolemark/rolemark/engine/driver"
)

// TestPlacerIsOrigPos: a placer, which counts on from the position it gave
// last, gives origPos's answer for positions asked in any order, in a
// source the rewriter changed (role markers expanded, a block of a fixed
// role) over lines of multi-byte text.
func TestPlacerIsOrigPos(t *testing.T) {
	src := "{{ role(\"system\") }}Sé {{ a }}\n{% user %}😀 {{ b }}\n\n{{ c|upper }} {{ role(\"user\") }}x{% enduser %}\n{{ d }}"
	c, err := New().Compile("t.pongo2", src, driver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := c.(*compiled).loader.source("t.pongo2")
	if s == nil || len(s.inserts) == 0 {
		t.Fatalf("no rewritten source: %+v", s)
	}
	p := newPlacer(s)
	r := rand.New(rand.NewPCG(3, 4))
	lines := 1
	for _, ch := range s.out {
		if ch == '\n' {
			lines++
		}
	}
	for range 3000 {
		line, col := 1+r.IntN(lines+1), 1+r.IntN(40)
		wl, wc := s.origPos(line, col)
		gl, gc := p.origPos(line, col)
		if wl != gl || wc != gc {
			t.Fatalf("origPos(%d, %d) = %d:%d, placer %d:%d", line, col, wl, wc, gl, gc)
		}
	}
}
