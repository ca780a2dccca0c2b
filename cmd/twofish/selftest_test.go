package main

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/kat"
)

// exhaustive reports whether TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs, which CI sets.
func exhaustive() bool { return os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1" }

// TestSelftest checks that selftest passes on this machine with a line per
// implementation, supported or not. Every implementation takes about 20 s
// of CPU, so it runs with TWOFISH_TEST_EXHAUSTIVE=1 (TestSelftestOne runs
// one implementation always, and CI runs the command itself too).
func TestSelftest(t *testing.T) {
	if !exhaustive() {
		t.Skip("every implementation's selftest takes about 20 s: it runs with TWOFISH_TEST_EXHAUSTIVE=1")
	}
	status, stdout, stderr := runTool(t, "selftest")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish selftest: exit status %d, stdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	// NewCipher's and NewCipherConstantTime's ciphers, then every
	// implementation.
	impls := append([]twofish.Implementation{{Name: "auto", Supported: true}, {Name: "ct", Supported: true}}, twofish.Implementations()...)
	if len(lines) != len(impls) {
		t.Fatalf("%d lines for %d ciphers:\n%s", len(lines), len(impls), stdout)
	}
	for _, im := range impls {
		want := []string{im.Name, "ok", "147 known answers", "120 Monte Carlo records (first 10 per key size"}
		if !im.Supported {
			want = []string{im.Name, "skipped", "not supported on this CPU"}
		}
		found := false
		for _, line := range lines {
			if f := strings.Fields(line); len(f) > 0 && f[0] == im.Name {
				found = true
				for _, w := range want {
					if !strings.Contains(line, w) {
						t.Errorf("line %q does not say %q", line, w)
					}
				}
			}
		}
		if !found {
			t.Errorf("no line for %s:\n%s", im.Name, stdout)
		}
	}
}

// TestSelftestOne checks -impl and -seed, that generic is compared with
// x/crypto, that each implementation runs every known answer and the first
// Monte Carlo records through its widest kernel (auto's and ct's: that of
// their long runs), and that the differential test takes every whole number
// of blocks up to twice the widest kernel of any implementation.
//
// With -short, which CI's emulated runs take (and its race and Go 1.24
// runs), ct's subtest skips: its kernels are wide (generic-ct's 16 blocks
// on every architecture without constant-time assembly, arm64-neon's 16),
// and its Monte Carlo records go through them a block a call, which took
// 374 s of the command's 650 s of tests in the 386 guest of .ci/run
// (qemu-system-x86_64, generic-ct) and 33 s of 139 under qemu-aarch64
// (arm64-neon). The library's tests check those kernels there, and the
// runs without -short (exhaustive and purego) this subtest.
func TestSelftestOne(t *testing.T) {
	status, stdout, _ := runTool(t, "selftest", "-impl", "generic", "-seed", "42")
	if status != exitOK || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "against golang.org/x/crypto/twofish") {
		t.Fatalf("twofish selftest -impl generic: exit status %d:\n%s", status, stdout)
	}
	generic := stdout
	for _, impl := range []string{"generic", "auto", "ct"} {
		t.Run("impl="+impl, func(t *testing.T) {
			c, err := newCipher(impl, make([]byte, 16))
			if err != nil {
				t.Fatal(err)
			}
			if impl == "ct" && testing.Short() {
				t.Skipf("-short: ct's Monte Carlo records go through its wide kernel (%s) a block a call, minutes emulated; the library's tests check it", c.Implementation())
			}
			stdout := generic
			if impl != "generic" {
				var status int
				status, stdout, _ = runTool(t, "selftest", "-impl", impl)
				if status != exitOK || !strings.HasPrefix(stdout, impl+" ") || !strings.Contains(stdout, "against generic") || !strings.Contains(stdout, "(GCM, OCB, EAX; ") {
					t.Fatalf("twofish selftest -impl %s: exit status %d:\n%s", impl, status, stdout)
				}
			}
			blocks, maxLanes := 0, 1
			for _, im := range twofish.Implementations() {
				if im.Name == c.Implementation() {
					blocks = im.Blocks
				}
				maxLanes = max(maxLanes, im.Blocks)
			}
			want := fmt.Sprintf("147 known answers (encrypt and decrypt, %d-block ECB calls), 120 Monte Carlo records (first 10 per key size; -full for all 400), ", blocks)
			if !strings.Contains(stdout, want) {
				t.Errorf("twofish selftest -impl %s (%s, %d blocks) does not say %q:\n%s", impl, c.Implementation(), blocks, want, stdout)
			}
			// Each of the 2*maxLanes+4 whole numbers of blocks, and a length
			// between it and the next, runs at least the 4 stream modes and
			// the 3 AEADs, with each key size.
			var cases int
			if i := strings.Index(stdout, " random cases"); i >= 0 {
				f := strings.Fields(stdout[:i])
				cases, _ = strconv.Atoi(f[len(f)-1])
			}
			if least := 3 * (2*maxLanes + 4) * 2 * 7; cases < least {
				t.Errorf("twofish selftest -impl %s: %d random cases, want at least %d for kernels of up to %d blocks:\n%s", impl, cases, least, maxLanes, stdout)
			}
		})
	}
}

// TestSelftestFailStatus checks that an implementation that fails is
// reported on its line, with the seed that replays it, and makes selftest
// exit with status 1.
func TestSelftestFailStatus(t *testing.T) {
	defer func(saved []diffOp) { diffOps = saved }(diffOps)
	diffOps = slices.Clone(diffOps)
	op := diffOps[0]
	diffOps[0].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
		op.run(k, dst, src, iv, sector)
		if len(src) > 0 && &dst[0] == &src[0] {
			dst[0] ^= 1
		}
	}
	status, stdout, _ := runTool(t, "selftest", "-impl", "generic", "-seed", "7")
	if status != exitFailure || !strings.HasPrefix(stdout, "generic  FAIL ") || !strings.Contains(stdout, op.name+" of") || !strings.HasSuffix(stdout, "(-seed 7 replays it)\n") {
		t.Errorf("twofish selftest with generic's %s wrong: exit status %d, want %d:\n%s", op.name, status, exitFailure, stdout)
	}
}

// TestSelftestFails checks that selftest reports a wrong answer: a
// known-answer record or Monte Carlo record altered, the first or the last
// of its file, and a lane beside the one under test, before it or after
// it, that differs from generic.
func TestSelftestFails(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	for _, file := range append([]string{kat.ECBTable}, kat.MonteCarloFiles...) {
		for _, first := range []bool{false, true} {
			v, err := loadVectors(false)
			if err != nil {
				t.Fatal(err)
			}
			recs := v.table
			if file != kat.ECBTable {
				recs = v.mct[file]
			}
			i := len(recs) - 1
			if first {
				i = 0
			}
			recs[i].CT = bytes.Clone(recs[i].CT)
			recs[i].PT = bytes.Clone(recs[i].PT)
			recs[i].CT[3] ^= 1
			recs[i].PT[3] ^= 1
			_, err = selftestImpl(auto, 3, 3, v, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), fmt.Sprintf(" I=%d ", recs[i].Index)) {
				t.Errorf("%s record I=%d altered: error %v", file, recs[i].Index, err)
			}
		}
	}

	h, err := newLanes("generic", make([]byte, 16), 2, 0, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	h.wantEnc[20] ^= 1
	if err := h.crypt(make([]byte, 16), false); err == nil || !strings.Contains(err.Error(), "beside lane 0") {
		t.Errorf("a lane that differs from generic's result: error %v", err)
	}
	// Record 5 of a 3-block kernel sits in lane 2, after the lanes that
	// differ.
	h, err = newLanes("generic", make([]byte, 16), 3, 5, make([]byte, 48))
	if err != nil {
		t.Fatal(err)
	}
	h.wantDec[3] ^= 1
	if err := h.crypt(make([]byte, 16), true); err == nil || !strings.Contains(err.Error(), "beside lane 2") {
		t.Errorf("a lane before the one under test that differs from generic's result: error %v", err)
	}
}

// TestSelftestFailsOneWay checks that selftest reports a kernel wrong in
// one direction only, in the lane under test or in one beside it, both in
// the known answers and in the Monte Carlo records (which run with the
// known answers left out).
func TestSelftestFailsOneWay(t *testing.T) {
	for _, tc := range []struct {
		name         string
		decrypt      bool // else encryption is wrong
		blocks, lane int  // lane is the one wrong, of blocks
		table        bool // run the known answers
		want         string
	}{
		{"known answer decrypted wrong", true, 1, 0, true, kat.ECBTable + " record I=1 (128-bit key): decryption gives"},
		{"lane beside the known answer encrypted wrong", false, 3, 2, true, kat.ECBTable + " record I=1 (128-bit key), encryption: a random block beside lane 0"},
		{"lane beside the known answer decrypted wrong", true, 3, 2, true, kat.ECBTable + " record I=1 (128-bit key), decryption: a random block beside lane 0"},
		{"Monte Carlo record decrypted wrong", true, 1, 0, false, kat.ECBDecrypt + " record I=0 (128-bit key): got"},
		{"lane beside the Monte Carlo record encrypted wrong", false, 3, 2, false, kat.ECBEncrypt + " record I=0 (128-bit key): a random block beside lane 0"},
		{"lane beside the Monte Carlo record decrypted wrong", true, 3, 2, false, kat.ECBDecrypt + " record I=0 (128-bit key): a random block beside lane 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(saved func(*twofish.Cipher) (cipher.BlockMode, cipher.BlockMode)) { laneModes = saved }(laneModes)
			modes := laneModes
			laneModes = func(c *twofish.Cipher) (enc, dec cipher.BlockMode) {
				enc, dec = modes(c)
				if tc.decrypt {
					return enc, wrongLane{dec, tc.lane}
				}
				return wrongLane{enc, tc.lane}, dec
			}
			v, err := loadVectors(false)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.table {
				v.table = nil
			}
			_, err = selftestImpl("generic", tc.blocks, tc.blocks, v, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// wrongLane is a BlockMode whose results have a bit flipped in lane lane.
type wrongLane struct {
	cipher.BlockMode
	lane int
}

func (m wrongLane) CryptBlocks(dst, src []byte) {
	m.BlockMode.CryptBlocks(dst, src)
	dst[m.lane*twofish.BlockSize] ^= 1
}

// TestLoadVectors checks that selftest runs every known answer, the first
// mctPrefix Monte Carlo records of each key size, and with -full all 400.
func TestLoadVectors(t *testing.T) {
	for _, full := range []bool{false, true} {
		v, err := loadVectors(full)
		if err != nil {
			t.Fatal(err)
		}
		want := 3 * mctPrefix
		if full {
			want = 3 * 400
		}
		if len(v.table) != 147 || len(v.mct) != len(kat.MonteCarloFiles) || v.full != full {
			t.Errorf("full=%v: %d known answers, %d Monte Carlo files", full, len(v.table), len(v.mct))
		}
		for _, file := range kat.MonteCarloFiles {
			if len(v.mct[file]) != want {
				t.Errorf("full=%v: %d records of %s, want %d", full, len(v.mct[file]), file, want)
			}
		}
	}
}

// TestSelftestDifferentialFails checks that the differential test reports
// each mode that the implementation under test gets wrong (its in-place
// side with the last byte flipped) and each AEAD whose Open accepts a
// changed tag.
func TestSelftestDifferentialFails(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	for i, op := range diffOps {
		t.Run(op.name, func(t *testing.T) {
			defer func(saved []diffOp) { diffOps = saved }(diffOps)
			diffOps = slices.Clone(diffOps)
			diffOps[i].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
				op.run(k, dst, src, iv, sector)
				if len(src) > 0 && &dst[0] == &src[0] {
					dst[len(dst)-1] ^= 1
				}
			}
			_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), op.name+" of") {
				t.Errorf("%s wrong in the implementation under test: error %v", op.name, err)
			}
		})
	}
	for i, op := range aeadOps {
		t.Run(op.name, func(t *testing.T) {
			defer func(saved []aeadOp) { aeadOps = saved }(aeadOps)
			aeadOps = slices.Clone(aeadOps)
			aeadOps[i].of = func(k *keyed) cipher.AEAD {
				if k.std {
					return op.of(k)
				}
				return openAnything{op.of(k)}
			}
			_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), "with a changed tag") {
				t.Errorf("%s whose Open accepts a changed tag: error %v", op.name, err)
			}
		})
	}
}

// openAnything is an AEAD whose Open returns the ciphertext, less the tag,
// where the AEAD's own Open fails.
type openAnything struct{ cipher.AEAD }

func (a openAnything) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if out, err := a.AEAD.Open(dst, nonce, ciphertext, ad); err == nil {
		return out, nil
	}
	return append(dst, ciphertext[:len(ciphertext)-a.Overhead()]...), nil
}

// TestSelftestDifferentialAEADWrong checks that the differential test
// compares each AEAD of the implementation under test with crypto/cipher's
// GCM and this package's OCB and EAX over x/crypto's block: a Seal whose
// result differs from theirs, one that ignores the associated data, and an
// Open that succeeds with the wrong plaintext are reported.
func TestSelftestDifferentialAEADWrong(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	for i, op := range aeadOps {
		for _, tc := range []struct{ wrong, want string }{
			{"seal", " seal of"},
			{"ad", " seal of"},
			{"open", " open of"},
		} {
			t.Run(op.name+" "+tc.wrong, func(t *testing.T) {
				defer func(saved []aeadOp) { aeadOps = saved }(aeadOps)
				aeadOps = slices.Clone(aeadOps)
				aeadOps[i].of = func(k *keyed) cipher.AEAD {
					if k.std {
						return op.of(k)
					}
					return wrongAEAD{op.of(k), tc.wrong}
				}
				_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
				if err == nil || !strings.Contains(err.Error(), op.name+tc.want) {
					t.Errorf("%s wrong (%s) in the implementation under test: error %v", op.name, tc.wrong, err)
				}
			})
		}
	}
}

// wrongAEAD is an AEAD that gets one thing wrong: with "seal" its Seal, and
// with "open" its Open, changes the first byte of the result, and with
// "ad" both ignore the associated data.
type wrongAEAD struct {
	cipher.AEAD
	wrong string
}

func (a wrongAEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if a.wrong == "ad" {
		ad = nil
	}
	out := a.AEAD.Seal(dst, nonce, plaintext, ad)
	if a.wrong == "seal" {
		out[len(dst)] ^= 1
	}
	return out
}

func (a wrongAEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if a.wrong == "ad" {
		ad = nil
	}
	out, err := a.AEAD.Open(dst, nonce, ciphertext, ad)
	if err == nil && a.wrong == "open" && len(out) > len(dst) {
		out[len(dst)] ^= 1
	}
	return out, err
}

// TestSelftestDifferentialKeySizes checks that the differential test runs
// every mode with a 128-, a 192- and a 256-bit key, in that order: a mode
// wrong only with the second key, or the third, is reported with its size.
func TestSelftestDifferentialKeySizes(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	saved := diffOps
	defer func() { diffOps = saved }()
	for nth, bits := range []int{128, 192, 256} {
		diffOps = slices.Clone(saved)
		op := diffOps[0]
		keys := map[*keyed]int{} // the implementation under test's, in order
		diffOps[0].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
			op.run(k, dst, src, iv, sector)
			if len(src) > 0 && &dst[0] == &src[0] {
				if _, ok := keys[k]; !ok {
					keys[k] = len(keys)
				}
				if keys[k] == nth {
					dst[0] ^= 1
				}
			}
		}
		_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
		if want := fmt.Sprintf("%s of 16 bytes with a %d-bit key", op.name, bits); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s wrong with key number %d: error %v, want %q", op.name, nth+1, err, want)
		}
	}
}

// TestSelftestStreamsInTwoCalls checks that the differential test runs the
// stream modes of the implementation under test in two calls, cut at
// random, so that the second continues the first's partial block.
func TestSelftestStreamsInTwoCalls(t *testing.T) {
	var calls []int
	k := &keyed{cut: 5}
	src := make([]byte, 20)
	k.xorKeyStream(recordingStream(func(n int) { calls = append(calls, n) }), src, src)
	k.cut = 30
	k.xorKeyStream(recordingStream(func(n int) { calls = append(calls, n) }), src, src)
	if !slices.Equal(calls, []int{5, 15, 20, 0}) {
		t.Errorf("20 bytes cut at 5, then at 30: calls of %v bytes, want [5 15 20 0]", calls)
	}

	defer func(saved []diffOp) { diffOps = saved }(diffOps)
	diffOps = slices.Clone(diffOps)
	cut := 0
	for i, op := range diffOps {
		if op.name == "CTR" {
			diffOps[i].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
				if len(src) > 0 && &dst[0] == &src[0] && k.cut > 0 && k.cut < len(src) && k.cut%twofish.BlockSize != 0 {
					cut++
				}
				op.run(k, dst, src, iv, sector)
			}
		}
	}
	if _, err := differential("generic", 2, rand.New(rand.NewPCG(1, 2))); err != nil || cut == 0 {
		t.Errorf("differential: error %v, %d CTR inputs cut within a block", err, cut)
	}
}

// recordingStream is a cipher.Stream that tells the length of each call.
type recordingStream func(n int)

func (s recordingStream) XORKeyStream(dst, src []byte) { s(len(src)) }

// TestDiffSectorSize checks the sector of the differential test's XTS of
// many sectors: the largest of 512, 256, ..., 16 bytes that divides the
// buffer, so that the AVX-512 kernels get their pairs of half-groups.
func TestDiffSectorSize(t *testing.T) {
	for n, want := range map[int]int{16: 16, 48: 16, 256: 256, 768: 256, 1024: 512, 1536: 512, 65536: 512} {
		if got := diffSectorSize(n); got != want {
			t.Errorf("diffSectorSize(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestSelftestPanics checks that a panic in selftest, such as a kernel's,
// is a failure of the implementation, not a crash.
func TestSelftestPanics(t *testing.T) {
	v, err := loadVectors(false)
	if err != nil {
		t.Fatal(err)
	}
	// No lanes: the lane under test is record i mod 0.
	if _, err := selftestImpl("generic", 0, 1, v, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.HasPrefix(err.Error(), "panic: ") {
		t.Errorf("selftest of 0-block kernels: error %v, want a panic's", err)
	}
}

// TestSelftestFull runs -full, all Monte Carlo records, on the automatic
// implementation.
func TestSelftestFull(t *testing.T) {
	if !exhaustive() {
		t.Skip("all Monte Carlo records take most of a minute: they run with TWOFISH_TEST_EXHAUSTIVE=1")
	}
	status, stdout, _ := runTool(t, "selftest", "-full", "-impl", "auto")
	if status != exitOK || !strings.Contains(stdout, "4800 Monte Carlo records (all)") {
		t.Fatalf("twofish selftest -full: exit status %d:\n%s", status, stdout)
	}
}

// TestSelftestDifferentialAgainstGeneric checks that the differential test
// compares the implementation under test with generic, not with itself: an
// implementation whose ECB encryption is wrong in every call, in place or
// not, is reported.
func TestSelftestDifferentialAgainstGeneric(t *testing.T) {
	name := ""
	for _, im := range twofish.Implementations() {
		if im.Supported && im.Name != "generic" && name == "" {
			name = im.Name
		}
	}
	if name == "" {
		t.Skip("no implementation but generic")
	}
	defer func(saved []diffOp) { diffOps = saved }(diffOps)
	diffOps = slices.Clone(diffOps)
	op := diffOps[0]
	diffOps[0].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
		op.run(k, dst, src, iv, sector)
		if c, ok := k.block.(*twofish.Cipher); ok && c.Implementation() == name && len(dst) > 0 {
			dst[len(dst)-1] ^= 1
		}
	}
	_, err := differential(name, 2, rand.New(rand.NewPCG(1, 2)))
	if err == nil || !strings.Contains(err.Error(), op.name+" of") {
		t.Errorf("%s wrong in %s: error %v", op.name, name, err)
	}
}
