package main

import (
	"strings"
	"testing"
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
