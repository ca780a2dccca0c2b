package twofish

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"
)

// crypto/cipher's panic messages for a misused block mode or stream, which
// this package's modes give word for word.
const (
	notFull   = "crypto/cipher: input not full blocks"
	outSmall  = "crypto/cipher: output smaller than input"
	modeAlias = "crypto/cipher: invalid buffer overlap"
	badIV     = "cipher: incorrect length IV"
)

// TestMisuseMatrix calls every exported operation that takes buffers with
// nil, empty, short, exact, long and inexactly overlapping ones, and a dst
// longer than src whose rest overlaps src, and checks the exact panic (or
// its absence). After each misuse the same Cipher and XTS must still give
// the known answers: a panic leaves no damaged state.
func TestMisuseMatrix(t *testing.T) {
	const (
		okay       = ""
		inBlock    = "crypto/twofish: input not full block"
		outBlock   = "crypto/twofish: output not full block"
		overlap    = "crypto/twofish: invalid buffer overlap"
		xtsShort   = "xts: input shorter than one block"
		xtsCtSmall = "xts: ciphertext is smaller than plaintext"
		xtsPtSmall = "xts: plaintext is smaller than ciphertext"
		xtsAlias   = "xts: invalid buffer overlap"
	)
	// Buffer shapes: dst and src as functions of a 64-byte arena.
	type shape struct {
		name     string
		dst, src func(a []byte) []byte
	}
	shapes := []shape{
		{"nil,nil", func([]byte) []byte { return nil }, func([]byte) []byte { return nil }},
		{"empty,empty", func(a []byte) []byte { return a[:0] }, func(a []byte) []byte { return a[32:32] }},
		{"16,short", func(a []byte) []byte { return a[:16] }, func(a []byte) []byte { return a[32:47] }},
		{"short,16", func(a []byte) []byte { return a[:15] }, func(a []byte) []byte { return a[32:48] }},
		{"16,16", func(a []byte) []byte { return a[:16] }, func(a []byte) []byte { return a[32:48] }},
		{"long,long", func(a []byte) []byte { return a[:31] }, func(a []byte) []byte { return a[32:63] }},
		{"nil,16", func([]byte) []byte { return nil }, func(a []byte) []byte { return a[32:48] }},
		{"in place 32", func(a []byte) []byte { return a[:32] }, func(a []byte) []byte { return a[:32] }},
		{"overlap +1", func(a []byte) []byte { return a[1:33] }, func(a []byte) []byte { return a[:32] }},
		{"overlap -15", func(a []byte) []byte { return a[:32] }, func(a []byte) []byte { return a[15:47] }},
		{"overlap +1, one block", func(a []byte) []byte { return a[1:17] }, func(a []byte) []byte { return a[:16] }},
		// Only the first len(src) bytes of dst are output, as in
		// crypto/cipher: the rest may overlap src.
		{"dst past src", func(a []byte) []byte { return a[:48] }, func(a []byte) []byte { return a[32:48] }},
		// A single shared byte is an overlap, at either end.
		{"dst from src's last byte", func(a []byte) []byte { return a[15:31] }, func(a []byte) []byte { return a[:16] }},
		{"dst up to src's first byte", func(a []byte) []byte { return a[:16] }, func(a []byte) []byte { return a[15:31] }},
	}
	c := mustCipher(t, make([]byte, 16), autoName())
	x, _ := NewXTS(make([]byte, 32))
	iv := make([]byte, BlockSize)
	ops := []struct {
		name string
		f    func(dst, src []byte)
		want []string // one per shape
	}{
		{"Encrypt", c.Encrypt, []string{inBlock, inBlock, inBlock, outBlock, okay, okay, outBlock, okay, overlap, overlap, overlap, okay, overlap, overlap}},
		{"Decrypt", c.Decrypt, []string{inBlock, inBlock, inBlock, outBlock, okay, okay, outBlock, okay, overlap, overlap, overlap, okay, overlap, overlap}},
		{"ECB-enc", NewECBEncrypter(c).CryptBlocks, []string{okay, okay, notFull, outSmall, okay, notFull, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"ECB-dec", NewECBDecrypter(c).CryptBlocks, []string{okay, okay, notFull, outSmall, okay, notFull, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"CBC-enc", NewCBCEncrypter(c, iv).CryptBlocks, []string{okay, okay, notFull, outSmall, okay, notFull, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"CBC-dec", NewCBCDecrypter(c, iv).CryptBlocks, []string{okay, okay, notFull, outSmall, okay, notFull, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"CTR", NewCTR(c, iv).XORKeyStream, []string{okay, okay, okay, outSmall, okay, okay, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"CFB-enc", NewCFBEncrypter(c, iv).XORKeyStream, []string{okay, okay, okay, outSmall, okay, okay, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"CFB-dec", NewCFBDecrypter(c, iv).XORKeyStream, []string{okay, okay, okay, outSmall, okay, okay, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"OFB", NewOFB(c, iv).XORKeyStream, []string{okay, okay, okay, outSmall, okay, okay, outSmall, okay, modeAlias, modeAlias, modeAlias, okay, modeAlias, modeAlias}},
		{"XTS-enc", func(d, s []byte) { x.Encrypt(d, s, 0) }, []string{okay, okay, xtsShort, xtsCtSmall, okay, okay, xtsCtSmall, okay, xtsAlias, xtsAlias, xtsAlias, okay, xtsAlias, xtsAlias}},
		{"XTS-dec", func(d, s []byte) { x.Decrypt(d, s, 0) }, []string{okay, okay, xtsShort, xtsPtSmall, okay, okay, xtsPtSmall, okay, xtsAlias, xtsAlias, xtsAlias, okay, xtsAlias, xtsAlias}},
	}
	for _, op := range ops {
		for i, sh := range shapes {
			t.Run(fmt.Sprintf("%s/%s", op.name, sh.name), func(t *testing.T) {
				arena := newArena(t, 64)
				defer func() {
					r := recover()
					got := ""
					if r != nil {
						got = fmt.Sprint(r)
					}
					if got != op.want[i] {
						t.Errorf("panic %q, want %q", got, op.want[i])
					}
					checkState(t, c, x)
				}()
				op.f(sh.dst(arena), sh.src(arena))
			})
		}
	}
}

// newArena returns n bytes for the misuse matrix; where the platform has
// guard pages (guard_test.go), they end flush against an inaccessible page,
// so a write past them faults.
var newArena = func(t *testing.T, n int) []byte { return make([]byte, n) }

// checkState checks that c (keyed with 16 zero bytes) and x (32 zero
// bytes) still give their known answers.
func checkState(t *testing.T, c *Cipher, x *XTS) {
	t.Helper()
	want, _ := hex.DecodeString("9f589f5cf6122c32b6bfec2f2ae8c35a") // ECB_TBL I=1
	got := make([]byte, BlockSize)
	c.Encrypt(got, make([]byte, BlockSize))
	if !bytes.Equal(got, want) {
		t.Fatalf("Cipher gives %x after misuse, want %x", got, want)
	}
	ref, _ := NewXTSImpl(make([]byte, 32), "generic")
	a, b := make([]byte, 40), make([]byte, 40)
	x.Encrypt(a, make([]byte, 40), 5)
	ref.Encrypt(b, make([]byte, 40), 5)
	if !bytes.Equal(a, b) {
		t.Fatal("XTS gives a different answer after misuse")
	}
}

// TestMisuseLongRuns checks the misuse panics of every mode, of XTS and of
// every AEAD on runs long enough for their fast paths (two groups of the
// fused kernels and a padded rest, the chain kernels, XTS's sector halves,
// GCM's and OCB's batches), with every implementation and NewCipher's
// plan: an output that shares a single byte with the input at either end,
// or all of it but one, or a dst one byte short, panics before anything is
// written, so the buffers hold what they held; and a mode goes on
// afterwards as a new one would.
func TestMisuseLongRuns(t *testing.T) {
	const (
		blocks     = 160 * BlockSize // 2 groups and 32 blocks; 5 sectors of 512 bytes
		streams    = blocks + 5      // and a partial block, stolen in XTS
		aeadAlias  = "crypto/cipher: invalid buffer overlap of output and input"
		xtsAlias   = "xts: invalid buffer overlap"
		xtsCtSmall = "xts: ciphertext is smaller than plaintext"
		xtsPtSmall = "xts: plaintext is smaller than ciphertext"
		in         = 2 * streams // where the input starts in the arena
	)
	// Where each shape starts an output of out bytes, against an input of
	// n bytes at in.
	shapes := []struct {
		name  string
		start func(n, out int) int
	}{
		{"output up to the input's first byte", func(n, out int) int { return in - out + 1 }},
		{"output from the input's last byte", func(n, out int) int { return in + n - 1 }},
		{"output a byte after the input", func(n, out int) int { return in + 1 }},
		{"output a byte before the input", func(n, out int) int { return in - 1 }},
	}
	type op struct {
		name           string
		n, out         int    // the input's and the output's lengths
		aead           bool   // Seal or Open, which append to dst
		overlap, short string // the panics; "" where a short dst cannot be
		f              func(dst, src []byte)
		fresh          func(dst, src []byte) // f of a new mode; nil without state
	}
	check := func(t *testing.T, c *Cipher, x *XTS) {
		r := testRand(t)
		iv := randBytes(r, BlockSize)
		var ops []op
		for _, mc := range modeCases {
			n := streams
			if mc.blockMode {
				n = blocks
			}
			m := mc.ours(c, iv)
			ops = append(ops, op{mc.name, n, n, false, modeAlias, outSmall,
				func(d, s []byte) { crypt(m, d, s) },
				func(d, s []byte) { crypt(mc.ours(c, iv), d, s) }})
		}
		ops = append(ops,
			op{"XTS-enc", streams, streams, false, xtsAlias, xtsCtSmall, func(d, s []byte) { x.Encrypt(d, s, 7) }, nil},
			op{"XTS-dec", streams, streams, false, xtsAlias, xtsPtSmall, func(d, s []byte) { x.Decrypt(d, s, 7) }, nil},
			op{"XTS-sectors-enc", blocks, blocks, false, xtsAlias, xtsCtSmall, func(d, s []byte) { x.EncryptSectors(d, s, 512, 7) }, nil},
			op{"XTS-sectors-dec", blocks, blocks, false, xtsAlias, xtsPtSmall, func(d, s []byte) { x.DecryptSectors(d, s, 512, 7) }, nil})
		for _, m := range aeadModes {
			a := mustAEAD(t, m, c, m.nonces[0], m.tags[0])
			nonce := randBytes(r, m.nonces[0])
			ops = append(ops,
				op{m.name + "-seal", streams, streams + a.Overhead(), true, aeadAlias, "", func(d, s []byte) { a.Seal(d, nonce, s, nil) }, nil},
				op{m.name + "-open", streams, streams - a.Overhead(), true, aeadAlias, "", func(d, s []byte) { a.Open(d, nonce, s, nil) }, nil})
		}
		arena := make([]byte, 4*streams+2*BlockSize)
		for _, o := range ops {
			try := func(what, want string, dst, src []byte) {
				before := randBytes(r, len(arena))
				copy(arena, before)
				func() {
					defer func() {
						if got := fmt.Sprint(recover()); got != want {
							t.Errorf("%s, %s: panic %q, want %q", o.name, what, got, want)
						}
					}()
					o.f(dst, src)
				}()
				if !bytes.Equal(arena, before) {
					t.Errorf("%s, %s: the buffers changed before the panic", o.name, what)
				}
			}
			src := arena[in : in+o.n]
			for _, sh := range shapes {
				start := sh.start(o.n, o.out)
				dst := arena[start : start+o.out]
				if o.aead {
					dst = dst[:0] // the output is in its capacity
				}
				try(sh.name, o.overlap, dst, src)
			}
			if o.short != "" {
				try("dst one byte short", o.short, arena[:o.n-1], src)
			}
			if o.fresh != nil {
				src := randBytes(r, o.n)
				got, want := make([]byte, o.n), make([]byte, o.n)
				o.f(got, src)
				o.fresh(want, src)
				if !bytes.Equal(got, want) {
					t.Errorf("%s: after the panics, differs from a new one", o.name)
				}
			}
		}
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		x, err := NewXTSImpl(make([]byte, 64), impl.Name)
		if err != nil {
			t.Fatal(err)
		}
		check(t, mustCipher(t, make([]byte, 32), impl.Name), x)
	})
	t.Run("NewCipher", func(t *testing.T) {
		c, _ := NewCipher(make([]byte, 32))
		x, _ := NewXTS(make([]byte, 64))
		check(t, c, x)
	})
}

// TestMisuseKeepsModeState checks that a misuse panic leaves a mode where
// it was, mid-block too: after calls with a dst a byte short, with dst and
// src overlapping inexactly, or with a partial block, each recovered, a
// mode goes on as if they had not been made, short and long (fused-length)
// bad calls alike; so does a CBC mode after a SetIV of the wrong length.
// TestMisuseLongRuns checks new modes only, which have no key stream left
// over: a stream (CTR, OFB, CFB) that used its leftover key stream, or a
// mode that moved its counter, IV or feedback, before it checked the
// buffers would leave a caller that recovers out of step with the other
// side; one that wrote first and moved on later would use the same key
// stream twice.
func TestMisuseKeepsModeState(t *testing.T) {
	const (
		long = 2*fusedBytes + 3*BlockSize // past the fused kernels' groups
	)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 32), impl.Name)
		iv := randBytes(r, BlockSize)
		for _, mc := range modeCases {
			heads := []int{5, BlockSize + 7, long + 9} // streams stop mid-block
			bads := []int{7, long + 5}
			tail := long + 11
			if mc.blockMode {
				heads = []int{BlockSize, long}
				bads = []int{BlockSize, long}
				tail = long + BlockSize
			}
			for _, head := range heads {
				src := randBytes(r, head+tail)
				want := make([]byte, len(src))
				ref := mc.ours(c, iv)
				crypt(ref, want[:head], src[:head])
				crypt(ref, want[head:], src[head:])

				m := mc.ours(c, iv)
				got := make([]byte, len(src))
				crypt(m, got[:head], src[:head])
				for _, n := range bads {
					what := fmt.Sprintf("%s after %d bytes, a bad call of %d bytes", mc.name, head, n)
					arena := randBytes(r, 2*n+BlockSize)
					expectPanic(t, outSmall, func() { crypt(m, arena[n+1:2*n], arena[:n]) })
					expectPanic(t, modeAlias, func() { crypt(m, arena[1:n+1], arena[:n]) })
					if mc.blockMode {
						expectPanic(t, notFull, func() { crypt(m, arena[n+BlockSize:], arena[:n+1]) })
						if s, ok := m.(interface{ SetIV([]byte) }); ok {
							expectPanic(t, badIV, func() { s.SetIV(arena[:BlockSize-1]) })
							expectPanic(t, badIV, func() { s.SetIV(arena[:BlockSize+1]) })
						}
					}
					if t.Failed() {
						t.Fatalf("%s: the panics above are not the ones expected", what)
					}
				}
				crypt(m, got[head:], src[head:])
				if !bytes.Equal(got, want) {
					t.Fatalf("%s after %d bytes and misuse panics: what follows differs from a mode's that had none", mc.name, head)
				}
			}
		}
	})
}
