package twofish

import (
	"crypto/cipher"
	"errors"
	"sync"
)

// What the authenticated modes (gcm.go, ocb.go, eax.go) share.

// errOpen is what Open returns when the tag does not match.
var errOpen = errors.New("twofish: message authentication failed")

// aeadBlock is the block cipher under an AEAD: a *Cipher, whose runs of
// blocks go to its kernel ladder, or any other cipher.Block with 16-byte
// blocks, one block at a time. It is a concrete type, unlike the blocks
// interface of the other modes, so that the scratch buffers the AEADs keep
// on their stacks do not escape to the heap through an interface call.
type aeadBlock struct {
	c *Cipher
	b cipher.Block // when c is nil
}

// newAEADBlock returns the aeadBlock of b, or false if b's blocks are not
// 16 bytes long.
func newAEADBlock(b cipher.Block) (aeadBlock, bool) {
	if c, ok := b.(*Cipher); ok {
		if !c.k.Keyed() {
			panic(errNoKey)
		}
		return aeadBlock{c: c}, true
	}
	if b.BlockSize() != BlockSize {
		return aeadBlock{}, false
	}
	return aeadBlock{b: b}, true
}

// encryptBlock encrypts the first block of src into dst.
func (a *aeadBlock) encryptBlock(dst, src []byte) {
	if a.c != nil {
		a.c.Encrypt(dst, src)
		return
	}
	otherBlocks(a.b, dst[:BlockSize], src[:BlockSize], false)
}

// encryptBlocks encrypts the whole blocks of src into dst; in place is
// allowed.
func (a *aeadBlock) encryptBlocks(dst, src []byte) {
	if a.c != nil {
		a.c.encryptBlocks(dst, src)
		return
	}
	otherBlocks(a.b, dst, src, false)
}

// decryptBlocks decrypts the whole blocks of src into dst; in place is
// allowed.
func (a *aeadBlock) decryptBlocks(dst, src []byte) {
	if a.c != nil {
		a.c.decryptBlocks(dst, src)
		return
	}
	otherBlocks(a.b, dst, src, true)
}

// otherBlocks runs a cipher.Block that is not a *Cipher over the whole
// blocks of src, through a block on the heap: b's methods are interface
// calls, which would make any buffer handed to them escape, and the
// callers' buffers are on their stacks. The heap blocks are reused.
func otherBlocks(b cipher.Block, dst, src []byte, decrypt bool) {
	t := scratchBlocks.Get().(*[BlockSize]byte)
	for i := 0; i+BlockSize <= len(src); i += BlockSize {
		copy(t[:], src[i:])
		if decrypt {
			b.Decrypt(t[:], t[:])
		} else {
			b.Encrypt(t[:], t[:])
		}
		copy(dst[i:], t[:])
	}
	*t = [BlockSize]byte{} // it held data; the pool keeps none
	scratchBlocks.Put(t)
}

var scratchBlocks = sync.Pool{New: func() any { return new([BlockSize]byte) }}

// sliceForAppend returns in extended by n bytes, reusing in's capacity
// when it suffices, and the n new bytes.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}
