package jinja2

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPySort sorts 2,000 indices by keys that take timsort's
// merges: random keys (mergeLo and mergeHi one item at a time), and
// runs of 100 sorted keys interleaved at random (galloping). A change to
// the merges is held to it under cachegrind (docs/decisions.md, issue
// 25's section):
//
//	go test -c -o /tmp/j2.test ./internal/jinja2
//	GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no \
//	  /tmp/j2.test -test.run '^$' -test.bench 'PySort/runs' -test.benchtime 2000x
func BenchmarkPySort(b *testing.B) {
	const n = 2000
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]int, n)
	for i := range random {
		random[i] = r.IntN(n)
	}
	runs := make([]int, n)
	for i := range runs {
		runs[i] = (i%100)*n/100 + r.IntN(20)
		if i%100 == 0 {
			runs[i] = r.IntN(n)
		}
	}
	for _, tc := range []struct {
		name string
		keys []int
	}{{"random", random}, {"runs", runs}} {
		b.Run(tc.name, func(b *testing.B) {
			keys := tc.keys
			idx := make([]int, n)
			less := func(x, y int) bool { return keys[x] < keys[y] }
			for i := 0; i < b.N; i++ {
				for j := range idx {
					idx[j] = j
				}
				pySort(idx, less)
			}
		})
	}
}

// TestPySortStable checks BenchmarkPySort's inputs against a stable
// insertion sort, so that a change the benchmark measures is a sort.
func TestPySortStable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 300, 2000} {
		keys := make([]int, n)
		for i := range keys {
			keys[i] = r.IntN(n/3 + 1)
			if i%50 > 30 && i > 0 {
				keys[i] = keys[i-1] + r.IntN(2)
			}
		}
		got := make([]int, n)
		want := make([]int, n)
		for i := range got {
			got[i], want[i] = i, i
		}
		pySort(got, func(x, y int) bool { return keys[x] < keys[y] })
		for i := 1; i < n; i++ {
			for j := i; j > 0 && keys[want[j]] < keys[want[j-1]]; j-- {
				want[j], want[j-1] = want[j-1], want[j]
			}
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: index %d is %d, want %d", n, i, got[i], want[i])
			}
		}
	}
}
