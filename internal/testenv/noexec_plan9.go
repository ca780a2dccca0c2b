package testenv

// NotExecutable is false on Plan 9, where no emulator runs this project's
// test binaries.
func NotExecutable(error) bool { return false }
