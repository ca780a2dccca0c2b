package main

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/twofish-go/twofish/internal/cpu"
)

// cpuName names the processor as go test's benchmark header does: by the
// CPUID brand string on x86, on every system, else by the model name from
// /proc/cpuinfo where there is one (Linux), else by runtime.GOARCH.
func cpuName() string {
	if brand := cpu.HostFacts().Brand; brand != "" {
		return brand
	}
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
