package main

import (
	"strings"
	"testing"
)

// TestGobenchTime checks the time that -format gobench gives each result:
// ns/op, one call's, for the sweep, and ns/B, the slope, for the tables,
// whose slope times size is no call's time.
func TestGobenchTime(t *testing.T) {
	for _, tc := range []struct {
		method, want string
	}{
		{"slope", "\t7\t0.5 ns/B\t2000 MB/s\n"},
		{"call", "\t7\t512 ns/op\t2000 MB/s\n"},
	} {
		var out strings.Builder
		p := &gobenchReporter{w: &out}
		p.result(result{Cipher: "Twofish", Impl: "auto", Key: 256, Mode: "CTR", Dir: "enc", Size: 1024,
			Method: tc.method, NsPerByte: 0.5, Calls: 7})
		if _, got, _ := strings.Cut(out.String(), "\t"); "\t"+got != tc.want {
			t.Errorf("method %s: %q, want %q", tc.method, out.String(), tc.want)
		}
	}
}
