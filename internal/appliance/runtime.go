package appliance

import (
	"os"
	"runtime/debug"
)

// TuneRuntime trades a little memory for less GC work: the live heap of a
// serving appliance is small (tens of MB), so letting it grow 4× between
// collections costs little, and a soft limit keeps the total in check.
// GOGC and GOMEMLIMIT, when set, win (the end-to-end tests set them, so
// that an appliance run inside the test process leaves its GC alone).
func TuneRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(80 << 20)
	}
}
