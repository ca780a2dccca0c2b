package kernel

import (
	"bytes"
	"testing"
)

// TestZeroCipher checks the contract that the root package's checks rest
// on for a Cipher that New did not make: its runs panic with ErrNoKey, and
// nothing else runs a kernel, on its nil schedule or on tables it does
// not have: EncryptOnce declines, Single and WarmSingle give no kernel
// (the root package's Encrypt then panics), and the fused modes take no
// blocks and write nothing.
func TestZeroCipher(t *testing.T) {
	var c Cipher
	if c.Keyed() || c.Fused() || c.ConstantTime() || c.Head() != nil {
		t.Fatal("a zero Cipher reports a key or kernels")
	}
	src := bytes.Repeat([]byte{1}, 2*FusedGroup*BlockSize)
	for name, f := range map[string]func(dst []byte){
		"EncryptBlocks": func(dst []byte) { c.EncryptBlocks(dst, src) },
		"DecryptBlocks": func(dst []byte) { c.DecryptBlocks(dst, src) },
	} {
		dst := make([]byte, len(src))
		func() {
			defer func() {
				if r := recover(); r != ErrNoKey {
					t.Errorf("%s: panic %v, want %q", name, r, ErrNoKey)
				}
			}()
			f(dst)
		}()
		if !bytes.Equal(dst, make([]byte, len(src))) {
			t.Errorf("%s wrote before it panicked", name)
		}
	}
	dst := make([]byte, len(src))
	if c.EncryptOnce(dst, src) {
		t.Error("EncryptOnce encrypted without a key")
	}
	if k, ks, tables := c.Single(); k != nil || ks != nil || tables != nil {
		t.Error("Single returned a kernel, schedule or tables without a key")
	}
	if k, ks, tables := c.WarmSingle(); k != nil || ks != nil || tables != nil {
		t.Error("WarmSingle returned a kernel, schedule or tables without a key")
	}
	var ctr [2]uint64
	var iv [BlockSize]byte
	var sum [BlockSize]byte
	var offs OCBOffsets
	if c.CTRGroups(dst, src, &ctr, nil) != 0 || c.GCMGroups(dst, src, &ctr) != 0 || c.CBCDecryptGroups(dst, src, &iv) != 0 || c.CFBDecryptGroups(dst, src, &iv, nil) != 0 ||
		c.XTSGroups(dst, src, &ctr, false) != 0 || c.XTSGroups(dst, src, &ctr, true) != 0 ||
		c.OCBGroups(dst, src, new(OCBTable), &offs, &sum, false) != 0 || c.OCBGroups(dst, src, new(OCBTable), &offs, &sum, true) != 0 ||
		c.OCBHash(src, new(OCBTable), &offs, &sum) != 0 {
		t.Error("a fused mode took blocks without a key")
	}
	if !bytes.Equal(dst, make([]byte, len(src))) || ctr != [2]uint64{} || iv != [BlockSize]byte{} || sum != [BlockSize]byte{} {
		t.Error("a fused mode wrote without a key")
	}
}
