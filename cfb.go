package twofish

import (
	"crypto/cipher"
	"crypto/subtle"

	"github.com/twofish-go/twofish/internal/kernel"
)

// NewCFBEncrypter returns a Stream that encrypts in full-block (128-bit)
// cipher feedback mode, as crypto/cipher's CFB and OpenPGP's CFB do, with b
// and iv, which must be one block long. Encryption is serial.
func NewCFBEncrypter(b cipher.Block, iv []byte) cipher.Stream {
	return newCFB(b, iv, false)
}

// NewCFBDecrypter returns a Stream that decrypts in full-block cipher
// feedback mode. Decryption is parallel: a *Cipher makes the key stream of
// many blocks per kernel call.
func NewCFBDecrypter(b cipher.Block, iv []byte) cipher.Stream {
	return newCFB(b, iv, true)
}

func newCFB(b cipher.Block, iv []byte, decrypt bool) cipher.Stream {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.newCFB: IV length must equal block size")
	}
	x := &cfb{b: bb, used: BlockSize, decrypt: decrypt}
	copy(x.next[:], iv)
	return x
}

type cfb struct {
	b blocks
	// next collects the ciphertext of the current block: when full, it is
	// the input of the next key stream block.
	next [BlockSize]byte
	// ks is the key stream of the current block, of which used bytes are
	// spent; used == BlockSize means a new block must be made from next.
	ks      [BlockSize]byte
	used    int
	decrypt bool
}

// cfbChunk is how many bytes of CFB decryption go to the kernels at once.
const cfbChunk = 1024

func (x *cfb) XORKeyStream(dst, src []byte) {
	checkStream(dst, src)
	for len(src) > 0 {
		// Whole blocks go to encryptBlocks or decryptBlocks, but for a
		// last single block of decryption: Encrypt below costs it less
		// than a batch.
		if x.used == BlockSize && len(src) >= BlockSize && (!x.decrypt || len(src) >= 2*BlockSize) {
			n := len(src) - len(src)%BlockSize
			if x.decrypt {
				if n = x.fused(dst, src); n == 0 {
					n = min(len(src)-len(src)%BlockSize, cfbChunk)
					x.decryptBlocks(dst[:n], src[:n])
				}
			} else {
				x.encryptBlocks(dst[:n], src[:n])
			}
			dst, src = dst[n:], src[n:]
			continue
		}
		if x.used == BlockSize {
			x.b.encryptBlock(x.ks[:], x.next[:])
			x.used = 0
		}
		if x.decrypt {
			copy(x.next[x.used:], src)
		}
		n := subtle.XORBytes(dst, src, x.ks[x.used:])
		if !x.decrypt {
			copy(x.next[x.used:], dst[:n])
		}
		x.used += n
		dst, src = dst[n:], src[n:]
	}
}

// encryptBlocks encrypts whole blocks: in one call of a chain kernel where
// x's Cipher has one, else one kernel call each.
func (x *cfb) encryptBlocks(dst, src []byte) {
	if x.b.c != nil && x.b.c.k.Chain(kernel.ChainCFB, dst, src, &x.next) {
		return
	}
	for i := 0; i < len(src); i += BlockSize {
		x.b.encryptBlock(x.ks[:], x.next[:])
		xorBlock(x.next[:], src[i:i+BlockSize], x.ks[:])
		copy(dst[i:], x.next[:])
	}
}

// fused decrypts the blocks at the start of src that the fused kernels
// take (the whole groups, and a padded rest, a partial last block among
// it) through a kernel that encrypts the ciphertext blocks and XORs them
// in itself, where x's Cipher has one (kernel.Cipher.CFBDecryptGroups),
// and returns how many bytes it did; x goes on within a partial block.
// The kernel reads each source block twice and writes each destination
// block once: CFB decryption of 8 KiB then runs at 0.98x the speed of ECB,
// where the chunks below ran at 0.63x (Zen 5,
// BenchmarkModeVsECB/mode=CFB/dir=dec/impl=auto/key=256/size=8192's
// xECBmin, medians of 5).
func (x *cfb) fused(dst, src []byte) int {
	if x.b.c == nil || len(src) < fusedMin {
		return 0
	}
	n := x.b.c.k.CFBDecryptGroups(dst, src, &x.next, &x.ks)
	if p := n % BlockSize; p > 0 {
		x.used = p
	}
	return n
}

// decryptBlocks decrypts up to cfbChunk bytes of whole blocks: the key
// stream of every block is the encryption of the ciphertext block before
// it, all known in advance. They go through a buffer on the stack, so that
// a stream for one packet costs only its own small allocation, and a short
// message a short buffer (as the key stream of stream.XORKeyStream).
func (x *cfb) decryptBlocks(dst, src []byte) {
	if len(src) <= shortBatch {
		var buf [shortBatch]byte
		x.decryptWith(dst, src, buf[:])
		return
	}
	var buf [cfbChunk]byte
	x.decryptWith(dst, src, buf[:])
}

// decryptWith is decryptBlocks with the buffer buf.
func (x *cfb) decryptWith(dst, src, buf []byte) {
	n := len(src)
	copy(buf[:BlockSize], x.next[:])
	copy(buf[BlockSize:n], src[:n-BlockSize])
	copy(x.next[:], src[n-BlockSize:])
	x.b.encryptBlocks(buf[:n], buf[:n])
	subtle.XORBytes(dst, src, buf[:n])
}
