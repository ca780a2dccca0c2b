package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testenv"

	xtwofish "golang.org/x/crypto/twofish"
)

var _ cipher.Block = (*Cipher)(nil)

func TestKeySizes(t *testing.T) {
	for n := 0; n <= 64; n++ {
		c, err := NewCipher(make([]byte, n))
		_, xerr := xtwofish.NewCipher(make([]byte, n))
		switch n {
		case 16, 24, 32:
			if err != nil || c == nil {
				t.Errorf("NewCipher(%d-byte key) = %v, %v", n, c, err)
			}
		default:
			if err != KeySizeError(n) {
				t.Errorf("NewCipher(%d-byte key): error %v, want KeySizeError(%d)", n, err, n)
				continue
			}
			// Code that matched on x/crypto's message keeps working.
			if err.Error() != xerr.Error() {
				t.Errorf("error text %q, x/crypto's is %q", err, xerr)
			}
			if _, err := NewCipherImpl(make([]byte, n), "generic"); err != KeySizeError(n) {
				t.Errorf("NewCipherImpl(%d-byte key): error %v", n, err)
			}
		}
	}
}

func TestBlockSize(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	if BlockSize != 16 || c.BlockSize() != 16 || c.BlockSize() != xtwofish.BlockSize {
		t.Errorf("BlockSize = %d, Cipher.BlockSize() = %d", BlockSize, c.BlockSize())
	}
}

// TestXCryptoCompatibility checks byte-for-byte agreement with the
// deprecated golang.org/x/crypto/twofish, through every implementation.
func TestXCryptoCompatibility(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		for i := range 300 {
			key := randBytes(r, keySizes[i%3])
			c := mustCipher(t, key, impl.Name)
			x, err := xtwofish.NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			src := randBytes(r, BlockSize)
			got, want := make([]byte, BlockSize), make([]byte, BlockSize)
			c.Encrypt(got, src)
			x.Encrypt(want, src)
			if !bytes.Equal(got, want) {
				t.Fatalf("key %x: Encrypt(%x) = %x, x/crypto gives %x", key, src, got, want)
			}
			c.Decrypt(got, src)
			x.Decrypt(want, src)
			if !bytes.Equal(got, want) {
				t.Fatalf("key %x: Decrypt(%x) = %x, x/crypto gives %x", key, src, got, want)
			}
		}
	})
}

func TestImplementations(t *testing.T) {
	impls := Implementations()
	if !slices.Contains(impls, Implementation{Name: "generic", Blocks: 3, Supported: true}) {
		t.Errorf("no portable generic kernel in %+v", impls)
	}
	seen := map[string]bool{}
	for _, impl := range impls {
		if seen[impl.Name] {
			t.Errorf("implementation %q listed twice", impl.Name)
		}
		seen[impl.Name] = true
		if impl.Blocks < 1 {
			t.Errorf("%s: Blocks = %d", impl.Name, impl.Blocks)
		}
		c, err := NewCipherImpl(make([]byte, 32), impl.Name)
		switch {
		case impl.Supported && err != nil:
			t.Errorf("NewCipherImpl(%q): %v", impl.Name, err)
		case impl.Supported && c.Implementation() != impl.Name:
			t.Errorf("NewCipherImpl(%q).Implementation() = %q", impl.Name, c.Implementation())
		case !impl.Supported && (err == nil || !strings.Contains(err.Error(), "not supported")):
			t.Errorf("NewCipherImpl(%q) on a CPU without support: error %v", impl.Name, err)
		}
	}
	if _, err := NewCipherImpl(make([]byte, 16), "no-such-kernel"); err == nil ||
		err.Error() != `twofish: unknown implementation "no-such-kernel"` {
		t.Errorf("unknown implementation: error %v", err)
	}

	name, reason := AutoImplementation()
	if !seen[name] || reason == "" {
		t.Errorf("AutoImplementation() = %q, %q", name, reason)
	}
	if c, _ := NewCipher(make([]byte, 16)); c.Implementation() != name {
		t.Errorf("NewCipher uses %q, AutoImplementation says %q", c.Implementation(), name)
	}
}

func TestAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		c := mustCipher(t, make([]byte, 32), impl.Name)
		buf := make([]byte, 4096)
		for name, f := range map[string]func(){
			"Encrypt":       func() { c.Encrypt(buf, buf) },
			"Decrypt":       func() { c.Decrypt(buf, buf) },
			"encryptBlocks": func() { c.encryptBlocks(buf, buf) },
			"decryptBlocks": func() { c.decryptBlocks(buf[:2048], buf[2048:]) },
			// Buffers on the caller's stack stay there.
			"Encrypt of a stack array": func() { var b [BlockSize]byte; c.Encrypt(b[:], b[:]) },
			"Decrypt of a stack array": func() { var b [BlockSize]byte; c.Decrypt(b[:], b[:]) },
		} {
			if n := testing.AllocsPerRun(20, f); n != 0 {
				t.Errorf("%s allocates %v times per call", name, n)
			}
		}
	})
}

// TestImplEnvironment runs this test binary again with TWOFISH_IMPL set, as
// the variable is read once per process.
func TestImplEnvironment(t *testing.T) {
	if os.Getenv("TWOFISH_TEST_CHILD") == "1" {
		name, reason := AutoImplementation()
		c, _ := NewCipher(make([]byte, 16))
		p, _ := NewCipherImpl(make([]byte, 16), "generic")
		ct, _ := NewCipherConstantTime(make([]byte, 16))
		fmt.Printf("ct=%s auto=%s cipher=%s pinned=%s paths=%v reason=%s\n", ct.Implementation(), name, c.Implementation(), p.Implementation(), c.Paths(), reason)
		return
	}
	testenv.MustHaveExec(t)
	// run returns the child's constant-time kernel and the rest of its
	// line.
	run := func(env string) (ct, rest string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestImplEnvironment$")
		cmd.Env = append(os.Environ(), "TWOFISH_TEST_CHILD=1", "TWOFISH_IMPL="+env)
		out, err := testenv.CombinedOutput(t, cmd)
		if testenv.NotExecutable(err) {
			t.Skipf("cannot re-execute the test binary here (%v); internal/cpu's TestOverride covers the rules", err)
		}
		if err != nil {
			t.Fatalf("TWOFISH_IMPL=%s: %v\n%s", env, err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if ct, rest, ok := strings.Cut(line, " "); ok && strings.HasPrefix(ct, "ct=") {
				return ct, rest
			}
		}
		t.Fatalf("TWOFISH_IMPL=%s: no result in\n%s", env, out)
		return "", ""
	}
	auto, _ := AutoImplementation()
	ctWant, _ := NewCipherConstantTime(make([]byte, 16))
	check := func(env string) string {
		ct, rest := run(env)
		// The constant-time cipher ignores TWOFISH_IMPL.
		if ct != "ct="+ctWant.Implementation() {
			t.Errorf("TWOFISH_IMPL=%s: NewCipherConstantTime uses %s, want %s", env, ct, ctWant.Implementation())
		}
		return rest
	}
	// The child sees the CPU this process sees, but where go test -exec
	// runs this binary under an emulator of another CPU (qemu-x86_64 -cpu
	// EPYC in .ci/run, which says so with TWOFISH_TEST_EMULATED=1) and the
	// child runs natively.
	if ct, rest := run(""); ct != "ct="+ctWant.Implementation() || !strings.HasPrefix(rest, "auto="+auto+" ") {
		if os.Getenv("TWOFISH_TEST_EMULATED") == "1" {
			t.Skipf("the child process sees another CPU (%s %s): this binary runs under an emulator and its children natively", ct, rest)
		}
		t.Fatalf("TWOFISH_IMPL unset: the child process runs %s %s, want %s and auto=%s", ct, rest, "ct="+ctWant.Implementation(), auto)
	}
	for _, impl := range Implementations() {
		if !impl.Supported {
			continue
		}
		got := check(impl.Name)
		// Every shape runs the named implementation's family, as NewCipherImpl's.
		paths := mustCipher(t, make([]byte, 16), impl.Name).Paths()
		want := fmt.Sprintf("auto=%s cipher=%s pinned=generic paths=%v reason=TWOFISH_IMPL=%s overrides", impl.Name, impl.Name, paths, impl.Name)
		if !strings.HasPrefix(got, want) {
			t.Errorf("TWOFISH_IMPL=%s: got %q, want prefix %q", impl.Name, got, want)
		}
	}
	got := check("no-such-kernel")
	if !strings.HasPrefix(got, "auto="+auto+" cipher="+auto+" ") ||
		!strings.HasSuffix(got, `TWOFISH_IMPL ignored: twofish: unknown implementation "no-such-kernel"`) {
		t.Errorf("TWOFISH_IMPL=no-such-kernel: got %q", got)
	}
}

// TestModeAllocations checks that no mode allocates per call once built.
func TestModeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		c := mustCipher(t, make([]byte, 32), impl.Name)
		x, _ := NewXTSImpl(make([]byte, 64), impl.Name)
		iv := make([]byte, BlockSize)
		buf := make([]byte, 8192+5)
		for _, mc := range modeCases {
			m := mc.ours(c, iv)
			n := len(buf)
			if mc.blockMode {
				n -= n % BlockSize
			}
			if allocs := testing.AllocsPerRun(10, func() { crypt(m, buf[:n], buf[:n]) }); allocs != 0 {
				t.Errorf("%s allocates %v times per call", mc.name, allocs)
			}
		}
		if allocs := testing.AllocsPerRun(10, func() { x.Encrypt(buf, buf, 3); x.Decrypt(buf, buf, 3) }); allocs != 0 {
			t.Errorf("XTS allocates %v times per call", allocs)
		}
		for _, size := range []int{BlockSize, 512, 4096} {
			b := buf[:8192]
			if allocs := testing.AllocsPerRun(10, func() { x.EncryptSectors(b, b, size, 3); x.DecryptSectors(b, b, size, 3) }); allocs != 0 {
				t.Errorf("XTS's sectors of %d bytes allocate %v times per call", size, allocs)
			}
		}
	})
}
