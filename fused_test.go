package twofish

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestFusedModes compares CTR, CBC decryption and CFB decryption with
// crypto/cipher's generic code over the same block at every whole-block
// length up to twice the widest kernel plus three blocks (and 7 bytes past
// each, for the streams), for every implementation and NewCipher's plan:
// the lengths where whole groups, and remainders padded into a group, go
// to the fused kernels of avx512-vbmi and avx512-gfni
// (kernel.Cipher.CTRGroups, CBCDecryptGroups, CFBDecryptGroups) and the
// rest to the ladder. Each length runs in place and not, at an offset
// modulo 8 that changes with it, in one call, and in two calls split at a
// random point, so that a fused run can start after a partial block of key
// stream.
func TestFusedModes(t *testing.T) { forEachCipher(t, 32, checkFusedModes) }

// checkFusedModes is TestFusedModes for the Cipher c.
func checkFusedModes(t *testing.T, r *rand.Rand, c *Cipher) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	for _, mc := range modeCases {
		if mc.name != "CTR" && mc.name != "CBC-dec" && mc.name != "CFB-dec" {
			continue
		}
		for n := 0; n <= maxBlocks*BlockSize+7; n++ {
			if n%BlockSize != 0 && (mc.blockMode || n%BlockSize != 7) {
				continue
			}
			iv := randBytes(r, BlockSize)
			off := n / BlockSize % 8
			src := randBytes(r, n+off)[off:]
			want := make([]byte, n)
			crypt(mc.ref(wrap{c}, iv), want, src)
			for _, inPlace := range []bool{false, true} {
				got := make([]byte, n+off)[off:]
				in := src
				if inPlace {
					copy(got, src)
					in = got
				}
				i := r.IntN(n + 1)
				if mc.blockMode {
					i -= i % BlockSize
				}
				m := mc.ours(c, iv)
				crypt(m, got[:i], in[:i])
				crypt(m, got[i:], in[i:])
				if !bytes.Equal(got, want) {
					t.Fatalf("%s, %d bytes, in place %v, split at %d: differs from crypto/cipher", mc.name, n, inPlace, i)
				}
			}
		}
	}
}

// TestCTRCarries compares CTR with crypto/cipher's for counters that carry
// within the first 71 blocks: 2^(8j)-1-k for every byte position j of the
// 128-bit counter and k from 0 to 70, over 131 blocks, for every
// implementation.
func TestCTRCarries(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 16), impl.Name)
		src := randBytes(r, 131*BlockSize)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		for j := 1; j <= 16; j++ {
			if testing.Short() && j != 8 && j != 16 {
				continue
			}
			for k := range 71 {
				// 2^(8j) - 1 - k, big-endian.
				iv := make([]byte, BlockSize)
				for i := BlockSize - j; i < BlockSize; i++ {
					iv[i] = 0xff
				}
				hi, lo := binary.BigEndian.Uint64(iv), binary.BigEndian.Uint64(iv[8:])
				if lo < uint64(k) {
					hi--
				}
				binary.BigEndian.PutUint64(iv, hi)
				binary.BigEndian.PutUint64(iv[8:], lo-uint64(k))
				NewCTR(c, iv).XORKeyStream(got, src)
				cipher.NewCTR(wrap{c}, iv).XORKeyStream(want, src)
				if !bytes.Equal(got, want) {
					t.Fatalf("IV %x: differs from crypto/cipher", iv)
				}
			}
		}
	})
}

// TestCTRCarriesAcrossCalls compares CTR with crypto/cipher's where the
// counter's low 64 bits wrap in a call that ends where a kernel's run ends
// (one group of 64 blocks, three, 12 and 32 blocks in the word layout, and
// 12 after two groups) and the stream goes on in a second call, which
// starts from the counter the first left: at every block of the first call
// and at the first of the second, for every implementation and NewCipher's
// plan. With -short, the wrap falls at every fifth block and at the first
// and last of every 16.
func TestCTRCarriesAcrossCalls(t *testing.T) { forEachCipher(t, 16, checkCTRCarriesAcrossCalls) }

// checkCTRCarriesAcrossCalls is TestCTRCarriesAcrossCalls for the Cipher c.
func checkCTRCarriesAcrossCalls(t *testing.T, r *rand.Rand, c *Cipher) {
	for _, first := range []int{64, 192, 12, 32, 128 + 12} {
		src := randBytes(r, (first+5)*BlockSize)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		iv := randBytes(r, BlockSize)
		for k := range first + 1 {
			if testing.Short() && k%5 != 0 && k%16 != 0 && k%16 != 15 {
				continue
			}
			// The low word 2^64-1-k: it wraps after block k.
			binary.BigEndian.PutUint64(iv[8:], ^uint64(k))
			s := NewCTR(c, iv)
			s.XORKeyStream(got[:first*BlockSize], src[:first*BlockSize])
			s.XORKeyStream(got[first*BlockSize:], src[first*BlockSize:])
			cipher.NewCTR(wrap{c}, iv).XORKeyStream(want, src)
			if !bytes.Equal(got, want) {
				t.Fatalf("IV %x, %d blocks then %d: differs from crypto/cipher", iv, first, len(src)/BlockSize-first)
			}
		}
	}
}

// TestFusedXTS compares XTS with every implementation, and NewXTS's and
// NewXTSConstantTime's, with XTS with generic (which TestXTSAgainstXCrypto
// compares with x/crypto/xts) at every whole-block length from one block
// up to twice the widest kernel plus three blocks, and 5 bytes past each
// (ciphertext stealing): the lengths where whole groups, and remainders
// padded into a group, go to the fused kernels of avx512-vbmi and
// avx512-gfni (kernel.Cipher.XTSGroups) and the rest to the batches. Each
// length encrypts and decrypts, in place and not, at an offset modulo 8
// that changes with it.
func TestFusedXTS(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		checkXTS(t, func(key []byte) (*XTS, error) { return NewXTSImpl(key, impl.Name) })
	})
	t.Run("NewXTS", func(t *testing.T) { checkXTS(t, NewXTS) })
	t.Run("NewXTSConstantTime", func(t *testing.T) { checkXTS(t, NewXTSConstantTime) })
}

// checkXTS is TestFusedXTS for the XTS that newXTS makes.
func checkXTS(t *testing.T, newXTS func(key []byte) (*XTS, error)) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	r := testRand(t)
	key := randBytes(r, 64)
	x, _ := newXTS(key)
	ref, _ := NewXTSImpl(key, "generic")
	for n := BlockSize; n <= maxBlocks*BlockSize+5; n++ {
		if n%BlockSize != 0 && n%BlockSize != 5 {
			continue
		}
		sector := r.Uint64()
		off := n / BlockSize % 8
		src := randBytes(r, n+off)[off:]
		for _, dec := range []bool{false, true} {
			ours, theirs := x.Encrypt, ref.Encrypt
			if dec {
				ours, theirs = x.Decrypt, ref.Decrypt
			}
			want := make([]byte, n)
			theirs(want, src, sector)
			got := make([]byte, n+off)[off:]
			ours(got, src, sector)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, decrypt %v: differs from generic", n, dec)
			}
			copy(got, src)
			ours(got, got, sector)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, decrypt %v, in place: differs from generic", n, dec)
			}
		}
	}
}

// TestFusedGCMCounter runs GCM's key stream and hash (gcm.crypt) with the
// 32-bit counter of J0 just below its wrap, and at lengths of whole groups
// around it, through every implementation, against the same code over a
// cipher.Block that is not a *Cipher (so no fused kernel). Only a nonce of
// other than 12 bytes makes such a J0: the fused CTR kernel, which takes
// whole groups whatever the counter (TestGCMPathIsPublic), must wrap it
// alone wherever it falls among its batches and groups.
func TestFusedGCMCounter(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 32)
		c := mustCipher(t, key, impl.Name)
		plain := wrap{c}
		for _, wrapAfter := range []int{0, 1, 63, 64, 65, 127, 128, 200, 300} {
			for _, n := range []int{fusedBytes, 3*fusedBytes + 17, 8*fusedBytes + 5} {
				src := randBytes(r, 2048+n)
				var j0 [BlockSize]byte
				copy(j0[:], randBytes(r, BlockSize))
				binary.BigEndian.PutUint32(j0[12:], ^uint32(0)-uint32(wrapAfter+2048/BlockSize+1))
				var out [2][]byte
				var ys, masks [2][BlockSize]byte
				for i, b := range []cipher.Block{c, plain} {
					g, err := newGCM(b, 16, 16)
					if err != nil {
						t.Fatal(err)
					}
					out[i] = make([]byte, len(src))
					g.(*gcm).crypt(out[i], src, &j0, &ys[i], &masks[i], false)
				}
				if !bytes.Equal(out[0], out[1]) || ys[0] != ys[1] || masks[0] != masks[1] {
					t.Fatalf("counter %x, %d bytes: differs from the unfused code", j0[12:], len(src))
				}
			}
		}
	})
}

// TestFusedStreamChains runs CTR and CFB decryption over a message cut
// into several XORKeyStream calls, against crypto/cipher's over the same
// block, for every implementation, NewCipher's plan and
// NewCipherConstantTime's: the pieces are runs that end in a partial block
// the fused kernels may take (in a padded group, ending a whole group,
// after a paired one) and short ones that end within the rest of its
// block, so that each call goes on from the state a partial block left
// (the stream's rest of a block of key stream, CFB's used bytes of one and
// the ciphertext so far), one piece after another, in place and not.
func TestFusedStreamChains(t *testing.T) {
	pool := []int{1, 3, 15, 16, 17, 5*BlockSize + 3, 10*BlockSize + 7, 63*BlockSize + 9, 64*BlockSize + 1, 69*BlockSize + 11, 127*BlockSize + 15, 130*BlockSize + 5}
	check := func(t *testing.T, r *rand.Rand, c *Cipher) {
		for _, mc := range modeCases {
			if mc.name != "CTR" && mc.name != "CFB-dec" {
				continue
			}
			for range 20 {
				pieces := make([]int, 2+r.IntN(5))
				n := 0
				for i := range pieces {
					pieces[i] = pool[r.IntN(len(pool))]
					n += pieces[i]
				}
				iv, src := randBytes(r, BlockSize), randBytes(r, n)
				want := make([]byte, n)
				crypt(mc.ref(wrap{c}, iv), want, src)
				for _, inPlace := range []bool{false, true} {
					got := make([]byte, n)
					in := src
					if inPlace {
						copy(got, src)
						in = got
					}
					m, at := mc.ours(c, iv), 0
					for _, p := range pieces {
						crypt(m, got[at:at+p], in[at:at+p])
						at += p
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s, pieces %v, in place %v: differs from crypto/cipher", mc.name, pieces, inPlace)
					}
				}
			}
		}
	}
	forEachCipher(t, 32, check)
	t.Run("NewCipherConstantTime", func(t *testing.T) {
		r := testRand(t)
		c, _ := NewCipherConstantTime(randBytes(r, 32))
		check(t, r, c)
	})
}

// TestFusedRunsWhere checks where the modes send their work with a Cipher
// that has the fused kernels (avx512-gfni, avx512-vbmi; pinned, so every
// rest of more than four blocks is padded into a group but those of up to
// 32 blocks after an even number of groups, which go to the 16- and
// 32-block kernels): CTR's and CFB
// decryption's fused step takes a run that ends in a partial block whole,
// the partial block with it, in a padded group, ending a whole group, or
// after a whole group it pairs with; and GCM's fused CTR run leaves the
// last of an odd number of whole groups to the key stream's call where
// the blocks after it, with the tag mask's, make a group the bulk kernel
// pads (or a whole one), so that the two go as a pair, and keeps it
// otherwise. Each of these is speed alone (the other way gives the same
// output), so no output comparison would notice its loss.
func TestFusedRunsWhere(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 32), impl.Name)
		if !c.k.Fused() {
			t.Skipf("%s has no fused kernels", impl.Name)
		}
		iv := randBytes(r, BlockSize)
		for _, n := range []int{40*BlockSize + 3, 63*BlockSize + 9, 69*BlockSize + 1, 127*BlockSize + 15, 3*fusedBytes + 10*BlockSize + 7} {
			src := randBytes(r, n)
			dst := make([]byte, n)
			if got := NewCTR(c, iv).(*stream).fused(dst, src); got != n {
				t.Errorf("CTR, %d bytes: the fused kernel took %d", n, got)
			}
			if got := NewCFBDecrypter(c, iv).(*cfb).fused(dst, src); got != n {
				t.Errorf("CFB decryption, %d bytes: the fused kernel took %d", n, got)
			}
		}
		a, err := NewGCM(c)
		if err != nil {
			t.Fatal(err)
		}
		g := a.(*gcm)
		for _, tc := range []struct{ n, skip, want int }{
			{fusedBytes + 200, BlockSize, 0},                    // 1 group, 14 blocks with the tag mask's: a pair
			{3*fusedBytes + 203, BlockSize, 2 * fusedBytes},     // 3 groups: the third pairs
			{fusedBytes + fusedBytes - BlockSize, BlockSize, 0}, // the tag mask's block fills the second group
			{2*fusedBytes + 200, BlockSize, 2 * fusedBytes},     // 2 groups: no pairing
			{fusedBytes + 40, BlockSize, fusedBytes},            // 4 blocks after: not padded
			{fusedBytes + 200, 0, 0},                            // after the tag mask: 13 blocks
			{9*fusedBytes + 200, BlockSize, 8 * fusedBytes},     // a full batch first
		} {
			if got := g.fusedRun(make([]byte, tc.n), tc.skip); got != tc.want {
				t.Errorf("GCM, %d bytes, skip %d: fusedRun %d, want %d", tc.n, tc.skip, got, tc.want)
			}
		}
	})
}
