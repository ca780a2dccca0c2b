// Package testenv says what the system running a test cannot do, so that a
// test needing it is skipped with the reason instead of failing there.
package testenv

import (
	"runtime"
	"testing"
)

// MustHaveExec skips t where a process cannot start another: js/wasm and
// wasip1/wasm, where Node or a WASI runtime runs one module and nothing
// else.
func MustHaveExec(t testing.TB) {
	t.Helper()
	switch runtime.GOOS {
	case "js", "wasip1":
		t.Skipf("%s/%s starts no processes", runtime.GOOS, runtime.GOARCH)
	}
}
