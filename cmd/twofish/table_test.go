package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{
		0.0853: "0.085", 0.999: "0.999", 1: "1.00", 6.234: "6.23",
		99.5: "99.50", 100: "100.0", 153.14: "153.1", 999.9: "999.9", 1000: "1000", 2452.4: "2452",
	} {
		if got := formatNumber(v); got != want {
			t.Errorf("formatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestTable checks the layout against bench-slope's.
func TestTable(t *testing.T) {
	var b bytes.Buffer
	label := "Twofish (impl=generic, key=256)"
	printHeader(&b, len(label), label)
	printRow(&b, len(label), "ECB enc", 6.23, 3790)
	printRow(&b, len(label), "CTR dec", 6.23, 0)
	printRow(&b, len(label), "CBC dec", 0, 3790)
	printFooter(&b, len(label))
	want := strings.Join([]string{
		"Twofish (impl=generic, key=256) |  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz",
		"                        ECB enc |      6.23 ns/B     153.1 MiB/s     23.61 c/B      3790",
		"                        CTR dec |      6.23 ns/B     153.1 MiB/s         - c/B         -",
		"                        CBC dec |         - ns/B         - MiB/s         - c/B      3790",
		"                                =",
		"",
	}, "\n")
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
