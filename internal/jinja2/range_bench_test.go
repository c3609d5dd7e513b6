package jinja2

import "testing"

// A loop over range() with the loop variable, and range's len, in and
// slices: the built range's paths, which lazyRange must leave as fast.
func BenchmarkRangeLoop(b *testing.B) {
	benchLoopOverThousand(b, "{% for i in range(ms|length) %}{{ i }}{{ loop.index }}{% endfor %}{% for j in range(20) %}{{ j in range(5, 15) }}{{ range(j)|length }}{{ range(30)[j:] }}{% endfor %}")
}
