//go:build !plan9

package testenv

import (
	"errors"
	"syscall"
)

// NotExecutable says whether err, from starting a program, means that the
// system cannot execute it: a test binary that go test -exec runs under
// qemu-user is foreign to the host, and so are the copies of itself it
// starts, unless binfmt_misc hands them to qemu too.
func NotExecutable(err error) bool { return errors.Is(err, syscall.ENOEXEC) }
