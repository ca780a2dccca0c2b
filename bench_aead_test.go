package twofish

import (
	"crypto/cipher"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/turns"
)

// benchAEADCase is one authenticated mode and operation, built over an
// implementation as a function that processes size bytes, and the raw mode
// whose cost it is compared with (GCM with CTR, OCB with ECB, at 8 KiB with
// the same implementation).
type benchAEADCase struct {
	mode, dir string // dir: seal, open, or auth (associated data only)
	base      benchMode
	build     func(impl string, key []byte, size int) func()
}

func benchModeNamed(mode, dir string) benchMode {
	i := slices.IndexFunc(benchModes, func(m benchMode) bool { return m.mode == mode && m.dir == dir })
	return benchModes[i]
}

var benchAEADCases = func() []benchAEADCase {
	newAEAD := func(mode string, c cipher.Block) cipher.AEAD {
		var a cipher.AEAD
		var err error
		switch mode {
		case "GCM":
			a, err = NewGCM(c)
		case "OCB":
			a, err = NewOCB(c, 12, 16)
		case "EAX":
			a, err = NewEAX(c, 16, 16)
		}
		if err != nil {
			panic(err)
		}
		return a
	}
	build := func(mode, dir string) func(string, []byte, int) func() {
		return func(impl string, key []byte, size int) func() {
			c, err := NewCipherImpl(key, impl)
			if err != nil {
				panic(err)
			}
			a := newAEAD(mode, c)
			nonce := make([]byte, a.NonceSize())
			switch dir {
			case "seal": // in place, as the raw modes are measured
				buf := make([]byte, size, size+a.Overhead())
				return func() { nextNonce(nonce); a.Seal(buf[:0], nonce, buf, nil) }
			case "open": // one message again and again: OCB's Ktop is cached
				ct := a.Seal(nil, nonce, make([]byte, size), nil)
				dst := make([]byte, size)
				return func() {
					if _, err := a.Open(dst[:0], nonce, ct, nil); err != nil {
						panic(err)
					}
				}
			default: // auth: size bytes of associated data, no message
				ad := make([]byte, size)
				tag := make([]byte, 0, a.Overhead())
				return func() { nextNonce(nonce); a.Seal(tag, nonce, nil, ad) }
			}
		}
	}
	var cases []benchAEADCase
	for _, m := range []struct{ mode, encBase, decBase string }{
		{"GCM", "CTR/enc", "CTR/enc"},
		{"OCB", "ECB/enc", "ECB/dec"},
		{"EAX", "CTR/enc", "CTR/enc"},
	} {
		for _, dir := range []string{"seal", "open", "auth"} {
			base := m.encBase
			if dir == "open" {
				base = m.decBase
			}
			bm, bd, _ := strings.Cut(base, "/")
			cases = append(cases, benchAEADCase{m.mode, dir, benchModeNamed(bm, bd), build(m.mode, dir)})
		}
	}
	return cases
}()

// nextNonce advances nonce as a big-endian counter, as a sender that
// counts its messages does: then OCB pays for a new Ktop (ocb.go) once in
// 64 messages, as it would, where one nonce again and again never does.
func nextNonce(nonce []byte) {
	for i := len(nonce) - 1; i >= 0; i-- {
		if nonce[i]++; nonce[i] != 0 {
			return
		}
	}
}

// aeadBenchImpls are the implementations the AEAD benchmarks run:
// every supported kernel of this build.
func aeadBenchImpls() []string {
	var names []string
	for _, impl := range Implementations() {
		if impl.Supported {
			names = append(names, impl.Name)
		}
	}
	return names
}

// BenchmarkAEAD measures every authenticated mode and operation for every
// implementation, e.g.
//
//	go test -run '^$' -bench 'AEAD/mode=GCM/dir=seal/impl=/key=256/size=8192' -count 5 .
func BenchmarkAEAD(b *testing.B) {
	for _, tc := range benchAEADCases {
		for _, impl := range aeadBenchImpls() {
			for _, bits := range []int{128, 256} {
				for _, size := range []int{16, 64, 1024, 8192, 65536} {
					b.Run(fmt.Sprintf("mode=%s/dir=%s/impl=%s/key=%d/size=%d", tc.mode, tc.dir, impl, bits, size), func(b *testing.B) {
						f := tc.build(impl, make([]byte, bits/8), size)
						b.SetBytes(int64(size))
						b.ReportAllocs()
						for b.Loop() {
							f()
						}
					})
				}
			}
		}
	}
}

// BenchmarkAEADCost runs each authenticated mode and the raw mode it is
// held to (GCM: CTR; OCB: ECB in the same direction; EAX: CTR) with the
// same implementation alternately over 8 KiB, and reports the median time
// of the AEAD's calls as a multiple of the median of the raw mode's
// (metric xbase: 1.15 means 15% dearer). Medians of alternating calls
// shrug off the other processes of a shared machine.
//
//	go test -run '^$' -bench 'AEADCost/mode=GCM' -count 5 .
func BenchmarkAEADCost(b *testing.B) {
	const size = 8192
	for _, tc := range benchAEADCases {
		if tc.dir == "auth" {
			continue
		}
		for _, impl := range aeadBenchImpls() {
			b.Run(fmt.Sprintf("mode=%s/dir=%s/impl=%s/base=%s-%s/key=256", tc.mode, tc.dir, impl, tc.base.mode, tc.base.dir), func(b *testing.B) {
				key := make([]byte, 32)
				f, base := tc.build(impl, key, size), tc.base.build(impl, key)
				buf := make([]byte, size)
				t := turns.Take(b, f, func() { base(buf) })
				b.ReportMetric(turns.Ratio(turns.Median, t.F, t.G), "xbase")
			})
		}
	}
}
