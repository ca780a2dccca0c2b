package twofish

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"testing"
)

// TestFusedModes compares CTR and CBC decryption with crypto/cipher's
// generic code over the same block at every whole-block length up to twice
// the widest kernel plus three blocks (and 7 bytes past each, for CTR), for
// every implementation: the lengths where whole groups go to the fused
// kernels of avx512-vbmi (kernel.Cipher.CTRGroups, CBCDecryptGroups) and
// the rest to the ladder. Each length runs in place and not, at an offset
// modulo 8 that changes with it, in one call, and in two calls split at a
// random point, so that a fused run can start after a partial block of key
// stream.
func TestFusedModes(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 32), impl.Name)
		for _, mc := range modeCases {
			if mc.name != "CTR" && mc.name != "CBC-dec" {
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
	})
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

// TestFusedXTS compares XTS with every implementation with XTS with
// generic (which TestXTSAgainstXCrypto compares with x/crypto/xts) at every
// whole-block length from one block up to twice the widest kernel plus
// three blocks, and 5 bytes past each (ciphertext stealing): the lengths
// where whole groups go to the fused kernels of avx512-vbmi
// (kernel.Cipher.XTSGroups) and the rest to the batches. Each length
// encrypts and decrypts, in place and not, at an offset modulo 8 that
// changes with it.
func TestFusedXTS(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 64)
		x, _ := NewXTSImpl(key, impl.Name)
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
	})
}
