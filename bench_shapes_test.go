package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the shapes are measured beside it.

import (
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/kernel"
	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"
)

// A benchShape is one way real programs use a block cipher, as an
// operation on a fresh buffer of size bytes built over a key for one
// contender: NewCipher ("auto"), NewCipherConstantTime ("ct"), a pinned
// implementation, or x/crypto/twofish through crypto/cipher and
// x/crypto/xts ("xcrypto").
type benchShape struct {
	name  string
	sizes []int
	build func(c contender, size int) func()
}

// A contender is a Cipher of ours, made by newOurs, or x/crypto's block
// when ours is nil.
type contender struct {
	name    string
	ours    *Cipher
	newOurs func(key []byte) (*Cipher, error)
	x       cipher.Block
	key     []byte
}

// cipher returns another Cipher of the contender's kind, with its key.
func (c contender) cipher() *Cipher {
	ours, err := c.newOurs(c.key)
	if err != nil {
		panic(err)
	}
	return ours
}

// block returns the contender's cipher.Block.
func (c contender) block() cipher.Block {
	if c.ours != nil {
		return c.ours
	}
	return c.x
}

// shapeSizes are the message sizes of the CTR and GCM shapes: powers of
// four and two, and 1500 bytes, an Ethernet frame's payload (a whole group
// of 64 blocks, a rest of 29 and a partial block).
var shapeSizes = []int{16, 64, 256, 1024, 1500, 8192, 65536}

var benchShapes = []benchShape{
	// Encrypt and Decrypt one block at a time, each output the next
	// input: CFB, CBC encryption and CMAC in their loops.
	{"Encrypt-chained", []int{16}, func(c contender, _ int) func() {
		b, buf := c.block(), make([]byte, BlockSize)
		return func() { b.Encrypt(buf, buf) }
	}},
	{"Decrypt-chained", []int{16}, func(c contender, _ int) func() {
		b, buf := c.block(), make([]byte, BlockSize)
		return func() { b.Decrypt(buf, buf) }
	}},
	// KeePass and Password Safe save a file: CBC encryption.
	{"CBC-enc", []int{8192}, func(c contender, size int) func() {
		m, buf := cipher.NewCBCEncrypter(c.block(), make([]byte, BlockSize)), make([]byte, size)
		return func() { m.CryptBlocks(buf, buf) }
	}},
	// kcp-go: a new CFB stream for each packet.
	{"CFB-packet", []int{1400}, func(c contender, size int) func() {
		b, iv, buf := c.block(), make([]byte, BlockSize), make([]byte, size)
		if c.ours != nil {
			return func() { NewCFBEncrypter(b, iv).XORKeyStream(buf, buf) }
		}
		return func() { cipher.NewCFBEncrypter(b, iv).XORKeyStream(buf, buf) }
	}},
	// A message with a fresh counter: a new stream each.
	{"CTR", shapeSizes, func(c contender, size int) func() {
		b, iv, buf := c.block(), make([]byte, BlockSize), make([]byte, size)
		return func() { cipher.NewCTR(b, iv).XORKeyStream(buf, buf) }
	}},
	{"GCM-seal", shapeSizes, func(c contender, size int) func() {
		var a cipher.AEAD
		if c.ours != nil {
			a, _ = NewGCM(c.ours)
		} else {
			a, _ = cipher.NewGCM(c.x)
		}
		nonce, buf := make([]byte, a.NonceSize()), make([]byte, size, size+a.Overhead())
		return func() { a.Seal(buf[:0], nonce, buf, nil) }
	}},
	{"CBC-dec", []int{64, 1024, 8192}, func(c contender, size int) func() {
		m, buf := cipher.NewCBCDecrypter(c.block(), make([]byte, BlockSize)), make([]byte, size)
		return func() { m.CryptBlocks(buf, buf) }
	}},
	// A disk sector or a page.
	{"XTS-enc", []int{512, 4096}, func(c contender, size int) func() {
		buf := make([]byte, size)
		key := append(slices.Clone(c.key), c.key...)
		if c.ours == nil {
			x, _ := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, key)
			return func() { x.Encrypt(buf, buf, 7) }
		}
		x := &XTS{c.ours, c.cipher()}
		return func() { x.Encrypt(buf, buf, 7) }
	}},
	{"OCB-seal", []int{64, 1024, 8192}, func(c contender, size int) func() {
		if c.ours == nil {
			return nil // x/crypto has no OCB
		}
		a, _ := NewOCB(c.ours, 12, 16)
		nonce, buf := make([]byte, 12), make([]byte, size, size+16)
		return func() { nextNonce(nonce); a.Seal(buf[:0], nonce, buf, nil) }
	}},
	// A new key per message, as OpenPGP's session keys and per-file or
	// per-session keys: the key schedule, then a short message.
	{"NewKey-GCM-seal", []int{64}, func(c contender, size int) func() {
		nonce, buf := make([]byte, 12), make([]byte, size, size+16)
		return func() {
			var a cipher.AEAD
			if c.ours != nil {
				a, _ = NewGCM(c.cipher())
			} else {
				x, _ := xtwofish.NewCipher(c.key)
				a, _ = cipher.NewGCM(x)
			}
			a.Seal(buf[:0], nonce, buf, nil)
		}
	}},
	{"NewKey-CTR", []int{1024}, func(c contender, size int) func() {
		iv, buf := make([]byte, BlockSize), make([]byte, size)
		return func() {
			var b cipher.Block
			if c.ours != nil {
				b = c.cipher()
			} else {
				b, _ = xtwofish.NewCipher(c.key)
			}
			cipher.NewCTR(b, iv).XORKeyStream(buf, buf)
		}
	}},
	// OpenPGP's CFB under a new session key: serial single blocks, which
	// build NewCipher's tables on AVX-512 after its first few.
	{"NewKey-CFB-enc", []int{1024}, func(c contender, size int) func() {
		iv, buf := make([]byte, BlockSize), make([]byte, size)
		return func() {
			if c.ours != nil {
				NewCFBEncrypter(c.cipher(), iv).XORKeyStream(buf, buf)
				return
			}
			b, _ := xtwofish.NewCipher(c.key)
			cipher.NewCFBEncrypter(b, iv).XORKeyStream(buf, buf)
		}
	}},
	{"ECB", []int{8192}, func(c contender, size int) func() {
		if c.ours == nil {
			b, buf := c.x, make([]byte, size)
			return func() {
				for i := 0; i < size; i += BlockSize {
					b.Encrypt(buf[i:], buf[i:])
				}
			}
		}
		m, buf := NewECBEncrypter(c.ours), make([]byte, size)
		return func() { m.CryptBlocks(buf, buf) }
	}},
}

// BenchmarkShapes measures every shape of benchShapes for the default
// cipher, the constant-time one, every pinned implementation this CPU runs
// and x/crypto, in rounds that take turns between them in a new order each,
// and reports the medians over the rounds: ns/op is the default cipher's,
// and the metrics are speed ratios (above 1 is faster): x-xcrypto of the
// default cipher to x/crypto, ct-x-xcrypto of the constant-time one,
// x-best of the default to the fastest pinned implementation (named in the
// log with every contender's time). One command gives the whole matrix:
//
//	go test -run '^$' -bench Shapes -benchtime 400x .
func BenchmarkShapes(b *testing.B) {
	for _, sh := range benchShapes {
		for _, size := range sh.sizes {
			for _, bits := range []int{128, 256} {
				b.Run(fmt.Sprintf("shape=%s/size=%d/key=%d", sh.name, size, bits), func(b *testing.B) {
					benchmarkShape(b, sh, size, make([]byte, bits/8))
				})
			}
		}
	}
}

// shapeRound is about how long each contender runs in one round.
const shapeRound = 20 * time.Microsecond

func benchmarkShape(b *testing.B, sh benchShape, size int, key []byte) {
	type run struct {
		name string
		op   func()
		reps int
		ns   []float64
	}
	var runs []*run
	add := func(c contender) {
		if op := sh.build(c, size); op != nil {
			runs = append(runs, &run{name: c.name, op: op})
		}
	}
	addOurs := func(name string, newOurs func([]byte) (*Cipher, error)) {
		c := contender{name: name, newOurs: newOurs, key: key}
		c.ours = c.cipher()
		add(c)
	}
	addOurs("auto", NewCipher)
	addOurs("ct", NewCipherConstantTime)
	for _, impl := range Implementations() {
		// generic-ct, which takes 18-28x generic's time a block (as
		// internal/cpu's arm64 rule quotes it) and more still against the
		// assembly kernels, is the constant-time cipher's only where no
		// other constant-time kernel runs.
		if !impl.Supported || impl.Name == "generic-ct" {
			continue
		}
		// NewCipherImpl's look-up by name, which auto and ct do not
		// make, is made once here: for every key it made the pinned
		// avx512-gfni 1.06x ct's time, the same plan, in
		// NewKey-GCM-seal (1353 against 1277 ns, Zen 5).
		k, err := kernel.Lookup(impl.Name)
		if err != nil {
			b.Fatal(err)
		}
		plan := kernel.Pin(k)
		addOurs(impl.Name, func(key []byte) (*Cipher, error) { return newCipher(key, plan) })
	}
	x, _ := xtwofish.NewCipher(key)
	add(contender{name: "xcrypto", x: x, key: key})
	for _, r := range runs {
		r.op()
		t0 := time.Now()
		r.op()
		r.reps = max(1, int(shapeRound/max(time.Since(t0), 1)))
	}
	// Each round runs the contenders in a new order, so that each runs in
	// every place and after every other one alike: auto, always first,
	// took 1.03-1.05x the time of the pinned amd64-1way, the same kernel,
	// in Encrypt-chained, and a second NewCipher contender third
	// 1.00-1.02x; with each round starting one contender later, auto
	// always ran right after x/crypto's 0.7 ms of 64 KiB GCM and took
	// 1.06-1.15x avx512-gfni's time there, the same kernels (1.01-1.05x
	// with the order shuffled; Zen 5, 5 runs each).
	order := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		for _, i := range order.Perm(len(runs)) {
			r := runs[i]
			t0 := time.Now()
			for range r.reps {
				r.op()
			}
			r.ns = append(r.ns, float64(time.Since(t0).Nanoseconds())/float64(r.reps))
		}
	}
	med := map[string]float64{}
	best := ""
	var lines []string
	for _, r := range runs {
		slices.Sort(r.ns)
		med[r.name] = r.ns[len(r.ns)/2]
		if r.name != "auto" && r.name != "ct" && r.name != "xcrypto" && (best == "" || med[r.name] < med[best]) {
			best = r.name
		}
	}
	for _, r := range runs {
		line := fmt.Sprintf("%-14s %10.1f ns/op %8.1f MB/s", r.name, med[r.name], float64(size)*1e3/med[r.name])
		if x, ok := med["xcrypto"]; ok {
			line += fmt.Sprintf("  %5.2fx x/crypto", x/med[r.name])
		}
		lines = append(lines, line)
	}
	b.Logf("medians of %d rounds, fastest pinned %s:\n%s", len(runs[0].ns), best, strings.Join(lines, "\n"))
	b.ReportMetric(med["auto"], "ns/op")
	b.ReportMetric(float64(size)*1e3/med["auto"], "MB/s")
	if x, ok := med["xcrypto"]; ok {
		b.ReportMetric(x/med["auto"], "x-xcrypto")
		b.ReportMetric(x/med["ct"], "ct-x-xcrypto")
	}
	b.ReportMetric(med[best]/med["auto"], "x-best")
}
