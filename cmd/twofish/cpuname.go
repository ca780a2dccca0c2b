package main

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"strings"
)

// cpuName names the processor: the model name from /proc/cpuinfo where
// there is one (Linux on x86), otherwise runtime.GOARCH.
func cpuName() string {
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		if name := modelName(f); name != "" {
			return name
		}
	}
	return runtime.GOARCH
}

// modelName returns the value of the first "model name" line of a
// /proc/cpuinfo listing, or "" if there is none.
func modelName(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}
