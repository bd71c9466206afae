//go:build !linux

package loadgen

import "syscall"

// dieWithParent has no portable equivalent outside Linux.
func dieWithParent() *syscall.SysProcAttr { return nil }
