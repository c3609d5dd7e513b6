//go:build !unix

package batch_test

import "time"

// cpuTime is not measured here: the cpu-µs/row metric reads 0.
func cpuTime() time.Duration { return 0 }
