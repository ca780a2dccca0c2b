package main

import (
	"os"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
)

func TestModelName(t *testing.T) {
	const cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\nflags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
	if got, want := modelName(strings.NewReader(cpuinfo)), "AMD EPYC 9654 96-Core Processor"; got != want {
		t.Errorf("modelName = %q, want %q", got, want)
	}
	if got := modelName(strings.NewReader("processor\t: 0\nBogoMIPS\t: 50.00\n")); got != "" {
		t.Errorf("modelName without a model name = %q, want \"\"", got)
	}
}

// TestCPUNameSource checks where the processor's name comes from: the
// CPUID brand string where the CPU has one, else the model name of
// /proc/cpuinfo where the system has one.
func TestCPUNameSource(t *testing.T) {
	name := cpuName()
	if brand := cpu.HostFacts().Brand; brand != "" {
		if name != brand {
			t.Errorf("cpuName() = %q, want the brand string %q", name, brand)
		}
		return
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		t.Skip("no brand string and no /proc/cpuinfo")
	}
	defer f.Close()
	if model := modelName(f); model != "" && name != model {
		t.Errorf("cpuName() = %q, want the model name %q", name, model)
	}
}
