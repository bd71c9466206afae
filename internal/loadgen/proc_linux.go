package loadgen

import "syscall"

// dieWithParent makes a child process receive SIGTERM when the bench dies,
// so an interrupted run leaves no server behind.
func dieWithParent() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM} }
