package twofish

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/kernel"
)

// XTS is Twofish in XEX-based tweaked-codebook mode with ciphertext stealing
// (IEEE 1619), the mode of disk encryption in VeraCrypt and dm-crypt
// (twofish-xts-plain64). Its methods have the shape of
// golang.org/x/crypto/xts.Cipher's. It is safe for concurrent use.
type XTS struct {
	data, tweak *Cipher
}

// NewXTS returns an XTS for a 32, 48 or 64-byte key: the data key, then the
// tweak key, of equal length. Other lengths give KeySizeError(len(key)).
// Like x/crypto/xts, it accepts equal halves; FIPS 140's rules for XTS-AES
// (implementation guidance A.9 of FIPS 140-2, C.I of FIPS 140-3) require
// them to differ, and ensuring that is the caller's job.
func NewXTS(key []byte) (*XTS, error) {
	return newXTS(key, kernel.Auto())
}

// NewXTSConstantTime is like NewXTS but with constant-time kernels only,
// as NewCipherConstantTime.
func NewXTSConstantTime(key []byte) (*XTS, error) {
	return newXTS(key, kernel.AutoConstantTime())
}

// ConstantTime reports whether both of x's ciphers run constant-time
// kernels only (see Cipher.ConstantTime).
func (x *XTS) ConstantTime() bool {
	return x.data != nil && x.data.ConstantTime() && x.tweak.ConstantTime()
}

// NewXTSImpl is like NewXTS but pins the implementation, as NewCipherImpl.
func NewXTSImpl(key []byte, impl string) (*XTS, error) {
	k, err := kernel.Lookup(impl)
	if err != nil {
		return nil, err
	}
	return newXTS(key, kernel.Pin(k))
}

func newXTS(key []byte, p kernel.Plan) (*XTS, error) {
	switch len(key) {
	case 32, 48, 64:
	default:
		return nil, KeySizeError(len(key))
	}
	data, _ := newCipher(key[:len(key)/2], p)
	tweak, _ := newCipher(key[len(key)/2:], p)
	return &XTS{data, tweak}, nil
}

// xtsBatch is how many bytes of XTS go to the kernels at once.
const xtsBatch = 1024

// Encrypt encrypts a sector of plaintext into ciphertext, which must be at
// least as long and overlap it entirely or not at all. The tweak is the
// sector number as 16 little-endian bytes. Any length of at least one block
// works: a trailing partial block uses ciphertext stealing. An empty
// plaintext does nothing, as in golang.org/x/crypto/xts; 1 to 15 bytes
// panic.
func (x *XTS) Encrypt(ciphertext, plaintext []byte, sectorNum uint64) {
	if len(ciphertext) < len(plaintext) {
		panic("xts: ciphertext is smaller than plaintext")
	}
	x.crypt(ciphertext[:len(plaintext)], plaintext, sectorNum, false)
}

// Decrypt decrypts a sector of ciphertext into plaintext, which must be at
// least as long and overlap it entirely or not at all.
func (x *XTS) Decrypt(plaintext, ciphertext []byte, sectorNum uint64) {
	if len(plaintext) < len(ciphertext) {
		panic("xts: plaintext is smaller than ciphertext")
	}
	x.crypt(plaintext[:len(ciphertext)], ciphertext, sectorNum, true)
}

// EncryptSectors encrypts consecutive sectors of sectorSize bytes from
// plaintext into ciphertext, sector i with the sector number firstSector+i
// (modulo 2^64), as Encrypt would one sector at a time. sectorSize must be
// at least one block (a sector with a partial last block uses ciphertext
// stealing, as in Encrypt; T10 DIF's 520-byte sectors, say) and plaintext
// a whole number of sectors; ciphertext must be at least as long and
// overlap it entirely or not at all.
//
// The sector numbers count sectors of sectorSize bytes, as LUKS2 and
// dm-crypt's iv_large_sectors do. Plain dm-crypt with sectors larger than
// 512 bytes counts 512-byte units instead (its 4096-byte sector i has the
// tweak of sector 8i): encrypt such sectors one at a time with Encrypt.
//
// It encrypts the sectors' tweaks together, and where the kernels make the
// tweaks themselves (avx512-vbmi, avx512-gfni) and the sectors are a
// multiple of 512 bytes that whole groups of 64 blocks do not hold (512
// bytes, 1 KiB, an odd number of 512-byte halves up to 64 KiB), it gives
// them two 512-byte sectors, or halves of sectors, a group, where Encrypt
// takes a 512-byte sector in the 32-block kernel: XTS over 512-byte
// sectors, VeraCrypt's data units, then runs 2.2-2.6x as fast as Encrypt
// sector by sector (1 KiB sectors 1.5x, 4 KiB 1.04x) and 33-40x as fast as
// golang.org/x/crypto/xts (Zen 5, 64 KiB, BenchmarkXTSSectors, medians of
// 5).
func (x *XTS) EncryptSectors(ciphertext, plaintext []byte, sectorSize int, firstSector uint64) {
	if len(ciphertext) < len(plaintext) {
		panic("xts: ciphertext is smaller than plaintext")
	}
	x.sectors(ciphertext[:len(plaintext)], plaintext, sectorSize, firstSector, false)
}

// DecryptSectors decrypts consecutive sectors of sectorSize bytes from
// ciphertext into plaintext, as EncryptSectors encrypts them.
func (x *XTS) DecryptSectors(plaintext, ciphertext []byte, sectorSize int, firstSector uint64) {
	if len(plaintext) < len(ciphertext) {
		panic("xts: plaintext is smaller than ciphertext")
	}
	x.sectors(plaintext[:len(ciphertext)], ciphertext, sectorSize, firstSector, true)
}

// xtsSectors is how many sectors' tweaks EncryptSectors and DecryptSectors
// encrypt in one call of the tweak Cipher, and xtsHalves how many tweaks
// of 512-byte halves of groups they give the data Cipher's kernels at once
// (64 KiB).
const (
	xtsSectors = 64
	xtsHalves  = 128
)

// halfBytes is a half-group of kernel.Cipher.XTSHalves: 512 bytes.
const halfBytes = kernel.XTSHalf * BlockSize

func (x *XTS) sectors(dst, src []byte, size int, sector uint64, decrypt bool) {
	bad := ""
	switch {
	case size < BlockSize:
		bad = "xts: sector size is shorter than one block"
	case len(src)%size != 0:
		bad = "xts: input is not a whole number of sectors"
	}
	x.check(dst, src, bad)
	// halves is how many 512-byte halves of groups a sector has, if the
	// kernels of a tweak a half take sectors of its size, and a batch
	// holds one.
	halves := 0
	if x.data.k.XTSHalvesTake(size) && size/halfBytes <= xtsHalves {
		halves = size / halfBytes
	}
	var tb [xtsSectors * BlockSize]byte
	var hs [xtsHalves][2]uint64
	tc := blocks{c: x.tweak}
	for len(src) > 0 {
		k := min(len(src)/size, xtsSectors)
		if halves > 0 {
			k = min(k, xtsHalves/halves)
		}
		n := k * size
		ts := tb[:k*BlockSize]
		for i := range k {
			binary.LittleEndian.PutUint64(ts[BlockSize*i:], sector+uint64(i))
			binary.LittleEndian.PutUint64(ts[BlockSize*i+8:], 0)
		}
		if k == 1 {
			tc.encryptOnce(ts, ts)
		} else {
			tc.encryptBlocks(ts, ts)
		}
		if halves == 0 {
			for i := range k {
				t := tweak{binary.LittleEndian.Uint64(ts[BlockSize*i:]), binary.LittleEndian.Uint64(ts[BlockSize*i+8:])}
				x.run(dst[size*i:size*(i+1)], src[size*i:size*(i+1)], t, decrypt)
			}
		} else {
			// Sector i's half j has the tweak T·x^(32j), T its tweak.
			for i := range k {
				t := [2]uint64{binary.LittleEndian.Uint64(ts[BlockSize*i:]), binary.LittleEndian.Uint64(ts[BlockSize*i+8:])}
				for j := range halves {
					hs[halves*i+j] = t
					t = kernel.TimesX(t, kernel.XTSHalf)
				}
			}
			done := x.data.k.XTSHalves(dst[:n], src[:n], hs[:k*halves], decrypt)
			if done < n {
				// An odd number of halves leaves the last one.
				t := hs[done/halfBytes]
				x.run(dst[done:n], src[done:n], tweak{t[0], t[1]}, decrypt)
			}
		}
		dst, src = dst[n:], src[n:]
		sector += uint64(k)
	}
}

// check panics if x has no key, with bad unless it is empty (what is wrong
// with the lengths), or if dst and src overlap inexactly: in that order, as
// x/crypto/xts checks the lengths before the overlap.
func (x *XTS) check(dst, src []byte, bad string) {
	if x.data == nil {
		panic("twofish: use of an XTS without a key (make one with NewXTS)")
	}
	if bad != "" {
		panic(bad)
	}
	if alias.InexactOverlap(dst, src) {
		panic("xts: invalid buffer overlap")
	}
}

func (x *XTS) crypt(dst, src []byte, sectorNum uint64, decrypt bool) {
	bad := ""
	if len(src) > 0 && len(src) < BlockSize {
		bad = "xts: input shorter than one block"
	}
	x.check(dst, src, bad)
	if len(src) == 0 {
		return
	}
	var tb [BlockSize]byte
	binary.LittleEndian.PutUint64(tb[:], sectorNum)
	// The tweak is a block of the mode's setup, one a sector: a new key
	// for one sector need not build the tables of the tweak Cipher's
	// kernel of single blocks (see NewCipher).
	tc := blocks{c: x.tweak}
	tc.encryptOnce(tb[:], tb[:])
	x.run(dst, src, tweak{binary.LittleEndian.Uint64(tb[:]), binary.LittleEndian.Uint64(tb[8:])}, decrypt)
}

// run encrypts or decrypts a sector of at least one block from src into
// dst with the tweak t of its first block.
func (x *XTS) run(dst, src []byte, t tweak, decrypt bool) {
	// Whole blocks, less the last one when stealing ciphertext.
	tail := len(src) % BlockSize
	bulk := len(src) - tail
	if tail != 0 {
		bulk -= BlockSize
	}
	// The blocks go, where the data Cipher's bulk kernel can, to a kernel
	// that makes the tweaks and XORs them in itself (all but a short
	// remainder after the whole groups): XTS of 8 KiB then runs at 0.91x
	// the speed of ECB with NewXTS, and at 0.88x with avx512-vbmi pinned,
	// whose single-block call encrypts the tweak, where the batches below
	// ran at 0.55x (Zen 5, BenchmarkModeVsECB's xECBmin; the kernels alone
	// run at 0.95x, BenchmarkFusedGroups).
	done := 0
	if bulk >= fusedMin {
		tw := [2]uint64{t.lo, t.hi}
		done = x.data.k.XTSGroups(dst[:bulk], src[:bulk], &tw, decrypt)
		t.lo, t.hi = tw[0], tw[1]
	}
	if done < bulk {
		x.batches(dst[done:bulk], src[done:bulk], &t, decrypt)
	}
	if tail == 0 {
		return
	}

	// Ciphertext stealing (IEEE 1619, 5.3.2): the last whole block is
	// processed with the last tweak but one, and its first tail bytes
	// become the short final block; the final plaintext bytes, padded with
	// the rest of that result, are processed with the last tweak into the
	// last whole block. Decryption uses the two tweaks the other way round.
	t1 := t
	t2 := t
	t2.double()
	if decrypt {
		t1, t2 = t2, t1
	}
	var cc [BlockSize]byte
	last := dst[bulk:]
	x.xexBlock(cc[:], src[bulk:bulk+BlockSize], t1, decrypt)
	var pp [BlockSize]byte
	copy(pp[:], src[bulk+BlockSize:])
	copy(pp[tail:], cc[tail:])
	copy(last[BlockSize:], cc[:tail])
	x.xexBlock(last[:BlockSize], pp[:], t2, decrypt)
}

// batches encrypts or decrypts the whole blocks of src into dst with the
// tweaks from *t on, a batch at a time: the tweaks into a buffer, then
// passes of XOR around the kernels. It leaves the tweak after the last
// block in *t.
func (x *XTS) batches(dst, src []byte, t *tweak, decrypt bool) {
	var tweaks [xtsBatch]byte
	// i moves on by the batch just done: i += xtsBatch would overflow an
	// int past the last batch of a sector within a batch of its largest
	// value (2 GiB on 32-bit platforms).
	for i, n := 0, 0; i < len(src); i += n {
		n = min(len(src)-i, xtsBatch)
		for j := 0; j < n; j += BlockSize {
			t.put(tweaks[j:])
			t.double()
		}
		d := dst[i : i+n]
		subtle.XORBytes(d, src[i:i+n], tweaks[:n])
		if decrypt {
			x.data.decryptBlocks(d, d)
		} else {
			x.data.encryptBlocks(d, d)
		}
		subtle.XORBytes(d, d, tweaks[:n])
	}
}

// xexBlock encrypts or decrypts one block with tweak t: a block of
// ciphertext stealing, one a sector, which like the tweak need not build
// the tables of the data Cipher's kernel of single blocks.
func (x *XTS) xexBlock(dst, src []byte, t tweak, decrypt bool) {
	var tb [BlockSize]byte
	t.put(tb[:])
	subtle.XORBytes(dst, src, tb[:])
	if decrypt {
		x.data.decryptBlocks(dst[:BlockSize], dst[:BlockSize])
	} else {
		dc := blocks{c: x.data}
		dc.encryptOnce(dst[:BlockSize], dst[:BlockSize])
	}
	subtle.XORBytes(dst, dst, tb[:])
}

// tweak is an element of GF(2^128) as XTS lays it out: a 128-bit
// little-endian integer.
type tweak struct{ lo, hi uint64 }

func (t *tweak) put(b []byte) {
	binary.LittleEndian.PutUint64(b, t.lo)
	binary.LittleEndian.PutUint64(b[8:], t.hi)
}

// double multiplies t by the primitive element x, modulo
// x^128 + x^7 + x^2 + x + 1, without branching on t.
func (t *tweak) double() {
	carry := t.hi >> 63
	t.hi = t.hi<<1 | t.lo>>63
	t.lo = t.lo<<1 ^ 0x87&-carry
}
