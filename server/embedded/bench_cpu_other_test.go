//go:build !unix

package embedded

import "time"

// processCPU is not measured here; cpu_us/op is then left out.
func processCPU() time.Duration { return 0 }
