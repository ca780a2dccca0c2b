//go:build linux && amd64 && gc && valgrind

package main

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpu"
)

// clientRequest makes the valgrind client request args[0] with the
// arguments args[1:6] and returns its result, 0 outside valgrind.
// Implemented in request_amd64.s.
//
//go:noescape
func clientRequest(args *[6]uintptr) uintptr

// Request numbers, from valgrind.h and memcheck.h: memcheck's are
// VG_USERREQ_TOOL_BASE('M','C') plus their place in its enum.
const (
	reqRunningOnValgrind = 0x1001
	reqMakeMemUndefined  = 'M'<<24 | 'C'<<16 + 1
	reqMakeMemDefined    = 'M'<<24 | 'C'<<16 + 2
)

func request(req uintptr, b []byte) {
	if len(b) == 0 {
		return
	}
	args := [6]uintptr{req, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b))}
	clientRequest(&args)
	runtime.KeepAlive(b)
}

// secret marks the bytes of bufs undefined: memcheck reports every branch
// and every memory address that depends on them from now on. It is the
// origin of every secret in memcheck's reports (--track-origins=yes),
// which is how classify.go tells secrets from the runtime's own
// uninitialised memory: it must not be inlined.
//
//go:noinline
func secret(bufs ...[]byte) {
	for _, b := range bufs {
		request(reqMakeMemUndefined, b)
	}
}

// public marks the bytes of bufs defined, as results that leave the
// cipher are.
func public(bufs ...[]byte) {
	for _, b := range bufs {
		request(reqMakeMemDefined, b)
	}
}

// The checks run on the main thread, whose g0 stack is the thread's own,
// far from the Go heap. Valgrind knows goroutine stacks (the runtime
// registers them) but not the g0 stacks the runtime allocates in its heap
// for other threads: a switch between one of those and a goroutine stack
// looks like a large stack frame to memcheck, which then marks the memory
// between the two stack pointers undefined or inaccessible, heap objects
// and other stacks included.
func init() { runtime.LockOSThread() }

func onValgrind() bool {
	args := [6]uintptr{reqRunningOnValgrind}
	return clientRequest(&args) != 0
}

// The lengths of the checks: around the widths of the avx2-ct kernels
// (64, 32 and 8 blocks), single blocks, partial blocks, XTS's stolen tail,
// and more than a 64-block group.
var (
	blockCounts = []int{1, 8, 41, 64, 105} // 105 = 64 + 32 + 8 + 1
	byteLens    = []int{1, 16, 17, 100, 64*16 + 5, 105*16 + 5}
	xtsLens     = []int{16, 17, 100, 64*16 + 5}
	aeadLens    = []int{0, 1, 16, 17, 100, 64*16 + 5}
	keySizes    = []int{16, 24, 32}
)

func run() int {
	if !onValgrind() {
		fmt.Fprintln(os.Stderr, "ctgrind: FAIL: not running under valgrind (tools/ctgrind.sh runs it)")
		return 2
	}
	h := cpu.Host()
	fmt.Printf("ctgrind: CPU policy under valgrind: constant-time block %s, GHASH %s, OCB offsets %s, 1-way body %s, key schedule %s\n",
		h.BlockCT.Name, h.GHASH.Name, h.OCBMask.Name, h.Scalar.Name, h.KeySched.Name)
	ck := &checker{}
	checkConstantTime(ck)
	checkSlicedSchedule(ck)
	var tables []string
	for _, impl := range twofish.Implementations() {
		if impl.Supported && !impl.ConstantTime {
			tables = append(tables, impl.Name)
		}
	}
	fmt.Printf("ctgrind: negative control: the table kernels %s\n", strings.Join(tables, ", "))
	controlBlock(ck, tables)
	controls := []string{"main.controlBlock"}
	if h.KeySched.Name == "generic" {
		controlKey(ck, tables)
		controls = append(controls, "main.controlKey")
	} else {
		checkKeySchedule(ck, tables)
	}
	fmt.Printf("ctgrind: controls run: %s\n", strings.Join(controls, " "))
	fmt.Printf("ctgrind: %d paths checked, %d wrong results\n", len(ck.paths), len(ck.failed))
	for _, f := range ck.failed {
		fmt.Println("ctgrind: FAIL: wrong result:", f)
	}
	if len(ck.failed) > 0 {
		return 1
	}
	fmt.Println(doneLine)
	return 0
}

// doneLine is the last line of a run that finished its checks, which
// tools/ctgrind.sh looks for.
const doneLine = "ctgrind: done"

// A checker records the paths checked and those whose results were wrong.
type checker struct {
	paths, failed []string
}

// expect marks got defined, as a result leaving the cipher, and compares
// it with want, whose inputs were never marked.
func (ck *checker) expect(path string, got, want []byte) {
	public(got)
	ck.paths = append(ck.paths, path)
	fmt.Println("ctgrind: path:", path)
	if !bytes.Equal(got, want) {
		ck.failed = append(ck.failed, path)
	}
}

func (ck *checker) fail(path, why string) {
	ck.paths = append(ck.paths, path)
	ck.failed = append(ck.failed, path+": "+why)
}

// data returns n bytes that depend on n and seed.
func data(n int, seed byte) []byte {
	b := make([]byte, n)
	x := uint32(n)*2654435761 + uint32(seed)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// secretCopy returns a copy of b marked secret.
func secretCopy(b []byte) []byte {
	s := bytes.Clone(b)
	if s == nil {
		s = []byte{}
	}
	secret(s)
	return s
}

// checkConstantTime runs every path of the constant-time ciphers on a
// secret key and secret messages; a memcheck report under it is a finding.
//
//go:noinline
func checkConstantTime(ck *checker) {
	for _, ks := range keySizes {
		key := data(ks, 1)
		c, err := twofish.NewCipherConstantTime(secretCopy(key))
		if err != nil {
			ck.fail("NewCipherConstantTime", err.Error())
			return
		}
		ref, err := twofish.NewCipherImpl(key, "generic")
		if err != nil {
			ck.fail("reference cipher", err.Error())
			return
		}
		if !c.ConstantTime() {
			ck.fail("NewCipherConstantTime", "the Cipher is not constant-time")
		}
		if ks == 16 {
			p := c.Paths()
			fmt.Printf("ctgrind: constant-time Cipher: single blocks %s, short runs %s, bulk %s, ConstantTime %v\n",
				p.Single.Impl, p.Short.Impl, p.Bulk.Impl, c.ConstantTime())
		}
		blockPaths(ck, fmt.Sprintf("key %d", ks*8), c, ref)
		if ks == 16 {
			// The modes depend on the key size only through the
			// kernels, which the block paths above take at every size.
			modePaths(ck, c, ref)
		}
		xtsPaths(ck, ks)
	}
}

// blockPaths checks single blocks and ECB both ways.
func blockPaths(ck *checker, k string, c, ref *twofish.Cipher) {
	pt := data(BlockSize, 2)
	want := make([]byte, BlockSize)
	ref.Encrypt(want, pt)
	got := make([]byte, BlockSize)
	c.Encrypt(got, secretCopy(pt))
	ck.expect("Encrypt, "+k, got, want)
	c.Decrypt(got, secretCopy(want))
	ck.expect("Decrypt, "+k, got, pt)
	for _, n := range blockCounts {
		pt := data(n*BlockSize, 3)
		want := make([]byte, len(pt))
		twofish.NewECBEncrypter(ref).CryptBlocks(want, pt)
		got := make([]byte, len(pt))
		twofish.NewECBEncrypter(c).CryptBlocks(got, secretCopy(pt))
		ck.expect(fmt.Sprintf("ECB encrypt, %s, %d blocks", k, n), got, want)
		twofish.NewECBDecrypter(c).CryptBlocks(got, secretCopy(want))
		ck.expect(fmt.Sprintf("ECB decrypt, %s, %d blocks", k, n), got, pt)
	}
}

const BlockSize = twofish.BlockSize

// modePaths checks CBC, CFB, OFB and CTR both ways, and GCM, OCB and EAX
// Seal and Open with associated data.
func modePaths(ck *checker, c, ref *twofish.Cipher) {
	iv := data(BlockSize, 4) // public, as IVs and nonces are
	for _, n := range blockCounts {
		pt := data(n*BlockSize, 5)
		want := make([]byte, len(pt))
		twofish.NewCBCEncrypter(ref, iv).CryptBlocks(want, pt)
		got := make([]byte, len(pt))
		twofish.NewCBCEncrypter(c, iv).CryptBlocks(got, secretCopy(pt))
		ck.expect(fmt.Sprintf("CBC encrypt, %d blocks", n), got, want)
		twofish.NewCBCDecrypter(c, iv).CryptBlocks(got, secretCopy(want))
		ck.expect(fmt.Sprintf("CBC decrypt, %d blocks", n), got, pt)
	}
	streams := []struct {
		name     string
		enc, dec func(cipher.Block, []byte) cipher.Stream
	}{
		{"CFB", twofish.NewCFBEncrypter, twofish.NewCFBDecrypter},
		{"OFB", twofish.NewOFB, twofish.NewOFB},
		{"CTR", twofish.NewCTR, twofish.NewCTR},
	}
	for _, s := range streams {
		for _, n := range byteLens {
			pt := data(n, 6)
			want := make([]byte, n)
			s.enc(ref, iv).XORKeyStream(want, pt)
			got := make([]byte, n)
			s.enc(c, iv).XORKeyStream(got, secretCopy(pt))
			ck.expect(fmt.Sprintf("%s encrypt, %d bytes", s.name, n), got, want)
			s.dec(c, iv).XORKeyStream(got, secretCopy(want))
			ck.expect(fmt.Sprintf("%s decrypt, %d bytes", s.name, n), got, pt)
		}
	}
	aeads := []struct {
		name string
		make func(cipher.Block) (cipher.AEAD, error)
	}{
		{"GCM", twofish.NewGCM},
		{"OCB", func(b cipher.Block) (cipher.AEAD, error) { return twofish.NewOCB(b, 12, 16) }},
		{"EAX", func(b cipher.Block) (cipher.AEAD, error) { return twofish.NewEAX(b, 16, 16) }},
	}
	for _, a := range aeads {
		aead, err := a.make(c)
		if err != nil {
			ck.fail(a.name, err.Error())
			continue
		}
		refAEAD, _ := a.make(ref)
		nonce := data(aead.NonceSize(), 7)
		ad := data(21, 8)
		for _, n := range aeadLens {
			pt := data(n, 9)
			want := refAEAD.Seal(nil, nonce, pt, ad)
			got := aead.Seal(nil, nonce, secretCopy(pt), ad)
			ck.expect(fmt.Sprintf("%s Seal, %d bytes", a.name, n), got, want)
			// Open's verdict is public: memcheck reports the branch on
			// it in Open itself, which classify.go allows, and only
			// that.
			path := fmt.Sprintf("%s Open, %d bytes", a.name, n)
			opened, err := aead.Open(nil, nonce, secretCopy(want), ad)
			if err != nil {
				ck.fail(path, err.Error())
			} else {
				ck.expect(path, opened, pt)
			}
			forged := bytes.Clone(want)
			forged[len(forged)-1] ^= 1
			path = fmt.Sprintf("%s Open of a forged tag, %d bytes", a.name, n)
			if _, err := aead.Open(nil, nonce, secretCopy(forged), ad); err == nil {
				ck.fail(path, "accepted")
			} else {
				ck.paths = append(ck.paths, path)
				fmt.Println("ctgrind: path:", path)
			}
		}
	}
}

// xtsPaths checks XTS both ways with a key of two ks-byte halves.
func xtsPaths(ck *checker, ks int) {
	key := data(2*ks, 10)
	x, err := twofish.NewXTSConstantTime(secretCopy(key))
	if err != nil {
		ck.fail("NewXTSConstantTime", err.Error())
		return
	}
	if !x.ConstantTime() {
		ck.fail("NewXTSConstantTime", "the XTS is not constant-time")
	}
	ref, _ := twofish.NewXTSImpl(key, "generic")
	for _, n := range xtsLens {
		pt := data(n, 11)
		want := make([]byte, n)
		ref.Encrypt(want, pt, 5)
		got := make([]byte, n)
		x.Encrypt(got, secretCopy(pt), 5)
		ck.expect(fmt.Sprintf("XTS encrypt, key %d, %d bytes", ks*16, n), got, want)
		x.Decrypt(got, secretCopy(want), 5)
		ck.expect(fmt.Sprintf("XTS decrypt, key %d, %d bytes", ks*16, n), got, pt)
	}
	// Three sectors at once, the tweaks of many sectors in one call: of
	// 512 bytes, and of 520, each with a stolen block.
	for _, size := range []int{512, 520} {
		pt := data(3*size, 13)
		want := make([]byte, len(pt))
		for i := range 3 {
			ref.Encrypt(want[size*i:size*(i+1)], pt[size*i:size*(i+1)], 7+uint64(i))
		}
		got := make([]byte, len(pt))
		x.EncryptSectors(got, secretCopy(pt), size, 7)
		ck.expect(fmt.Sprintf("XTS sectors of %d bytes encrypt, key %d", size, ks*16), got, want)
		x.DecryptSectors(got, secretCopy(want), size, 7)
		ck.expect(fmt.Sprintf("XTS sectors of %d bytes decrypt, key %d", size, ks*16), got, pt)
	}
}

// controlBlock encrypts and decrypts a secret run of blocks with each table
// kernel and a public key: memcheck must report the table look-ups.
//
//go:noinline
func controlBlock(ck *checker, tables []string) {
	key := data(16, 12)
	for _, name := range tables {
		c, err := twofish.NewCipherImpl(key, name)
		if err != nil {
			ck.fail("control "+name, err.Error())
			continue
		}
		pt := data(16*BlockSize, 13)
		out := make([]byte, len(pt))
		twofish.NewECBEncrypter(c).CryptBlocks(out, secretCopy(pt))
		public(out)
		c.Encrypt(out[:BlockSize], secretCopy(pt[:BlockSize]))
		public(out)
	}
}

// checkKeySchedule expands a secret key of each size for each table
// kernel with the vector key schedule that the CPU policy chose, which
// looks nothing up at a secret index: a memcheck report under it is a
// finding.
//
//go:noinline
func checkKeySchedule(ck *checker, tables []string) {
	for _, ks := range keySizes {
		key := data(ks, 15)
		for _, name := range tables {
			ck.paths = append(ck.paths, fmt.Sprintf("key schedule %d %s", ks*8, name))
			if _, err := twofish.NewCipherImpl(secretCopy(key), name); err != nil {
				ck.fail("key schedule "+name, err.Error())
			}
		}
	}
}

// controlKey expands a secret key for each table kernel: memcheck must
// report the key schedule's table look-ups.
//
//go:noinline
func controlKey(ck *checker, tables []string) {
	key := data(32, 14)
	for _, name := range tables {
		if _, err := twofish.NewCipherImpl(secretCopy(key), name); err != nil {
			ck.fail("control "+name, err.Error())
		}
	}
}
