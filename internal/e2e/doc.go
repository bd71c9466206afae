// Package e2e holds the end-to-end tests of the whole appliance. Most run
// the command line's Run in the test's own process on :0 ports, exactly
// as main does; the few that need a process of its own (kill -9, the
// binary's exit codes, the load generator) build the binary and drive it.
package e2e
