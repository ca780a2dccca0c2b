package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"bytes"
	"crypto/cipher"
	"slices"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"
)

// fuzzKey turns fuzzer bytes into a key of one of the three sizes.
func fuzzKey(sel byte, b []byte) []byte {
	key := make([]byte, keySizes[int(sel)%len(keySizes)])
	copy(key, b)
	return key
}

// fuzzMaxBytes bounds each message (data, plaintext, associated data) that
// a fuzz input runs through the code under test: 16 KiB crosses every
// batch and group boundary of the kernels and modes (64-block groups, GCM's
// and OCB's 8 KiB batches) twice, and more adds only time. Unbounded, the
// fuzzer's inputs (up to 100 MB) can take FuzzImplementations' generic-ct,
// instrumented for coverage, seconds each, longer than the fuzzing
// coordinator waits for a worker to stop at the end of a run (a second,
// then a second after SIGINT): the likely cause of a CI run whose fuzzing
// failed, after its 60 seconds, with no crasher.
const fuzzMaxBytes = 16 << 10

// fuzzBound returns b cut to fuzzMaxBytes.
func fuzzBound(b []byte) []byte { return b[:min(len(b), fuzzMaxBytes)] }

// FuzzImplementations checks every supported implementation's bulk
// encryption and decryption against generic's, and that they invert.
func FuzzImplementations(f *testing.F) {
	f.Add(byte(0), []byte("key"), bytes.Repeat([]byte{1}, 16*35))
	f.Add(byte(2), bytes.Repeat([]byte{0xff}, 32), make([]byte, 16*17))
	f.Fuzz(func(t *testing.T, sel byte, keyBytes, data []byte) {
		key := fuzzKey(sel, keyBytes)
		data = fuzzBound(data)
		data = data[:len(data)-len(data)%BlockSize]
		ref := mustCipher(t, key, "generic")
		wantEnc, wantDec := make([]byte, len(data)), make([]byte, len(data))
		ref.encryptBlocks(wantEnc, data)
		ref.decryptBlocks(wantDec, data)
		for _, impl := range Implementations() {
			if !impl.Supported {
				continue
			}
			c := mustCipher(t, key, impl.Name)
			got := make([]byte, len(data))
			c.encryptBlocks(got, data)
			if !bytes.Equal(got, wantEnc) {
				t.Fatalf("%s: encryption differs from generic", impl.Name)
			}
			c.decryptBlocks(got, got)
			if !bytes.Equal(got, data) {
				t.Fatalf("%s: decryption does not invert encryption", impl.Name)
			}
			c.decryptBlocks(got, data)
			if !bytes.Equal(got, wantDec) {
				t.Fatalf("%s: decryption differs from generic", impl.Name)
			}
		}
	})
}

// FuzzModes checks a fuzzer-chosen mode through a fuzzer-chosen
// implementation (NewCipher's, or any this CPU runs) against crypto/cipher's
// generic code over generic's block, with the input split into three calls,
// in place or from another buffer.
func FuzzModes(f *testing.F) {
	// Seeds: a short message; three groups of 64 blocks, five blocks and
	// seven bytes, split inside the groups (the fused kernels' whole
	// groups, a padded or masked rest, a partial block); and CTR with its
	// counter's low word 16 blocks before its wrap, split so that a call
	// ends after a padded rest. The fuzzer's mutations grow a message
	// slowly, so the seeds give it the lengths past a few KiB.
	for i := range modeCases {
		f.Add(byte(i), byte(i), []byte("key"), []byte("0123456789abcdef"), bytes.Repeat([]byte{byte(i)}, 100), uint16(17), uint16(50), byte(0), false)
		f.Add(byte(i), byte(i+1), []byte("key"), []byte("0123456789abcdef"), bytes.Repeat([]byte{byte(i), 0x5A}, (3*64*16+5*16+7)/2+1), uint16(1000), uint16(2100), byte(i), i%2 == 0)
	}
	nearWrap := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0}
	f.Add(byte(slices.IndexFunc(modeCases, func(m modeCase) bool { return m.name == "CTR" })), byte(0), []byte("key"), nearWrap, bytes.Repeat([]byte{1}, 100*16+5), uint16(90*16+3), uint16(1700), byte(0), false)
	f.Fuzz(func(t *testing.T, modeSel, keySel byte, keyBytes, ivBytes, data []byte, s1, s2 uint16, implSel byte, outOfPlace bool) {
		mc := modeCases[int(modeSel)%len(modeCases)]
		data = fuzzBound(data)
		key := fuzzKey(keySel, keyBytes)
		c := mustCipher(t, key, fuzzImpl(implSel))
		iv := make([]byte, BlockSize)
		copy(iv, ivBytes)
		if mc.blockMode {
			data = data[:len(data)-len(data)%BlockSize]
		}
		i, j := int(s1)%(len(data)+1), int(s2)%(len(data)+1)
		i, j = min(i, j), max(i, j)
		if mc.blockMode {
			i, j = i-i%BlockSize, j-j%BlockSize
		}
		want := make([]byte, len(data))
		crypt(mc.ref(wrap{mustCipher(t, key, "generic")}, iv), want, data)
		got := append([]byte(nil), data...)
		src := got
		if outOfPlace {
			src = bytes.Clone(data)
		}
		m := mc.ours(c, iv)
		crypt(m, got[:i], src[:i])
		crypt(m, got[i:j], src[i:j])
		crypt(m, got[j:], src[j:])
		if !bytes.Equal(got, want) {
			t.Fatalf("%s with %s, %d bytes split at %d and %d (out of place %v): differs from crypto/cipher", mc.name, c.Implementation(), len(data), i, j, outOfPlace)
		}
	})
}

// fuzzImpl returns the implementation that sel picks: NewCipher's, or one
// of those this CPU runs.
func fuzzImpl(sel byte) string {
	var names []string
	for _, impl := range Implementations() {
		if impl.Supported {
			names = append(names, impl.Name)
		}
	}
	if k := int(sel) % (len(names) + 1); k > 0 {
		return names[k-1]
	}
	return autoName()
}

// FuzzXTS checks XTS against golang.org/x/crypto/xts for every length of
// at least a block (a partial last block by xtsStealing), whole blocks as
// one sector and as consecutive sectors (EncryptSectors), and that
// decryption inverts encryption.
func FuzzXTS(f *testing.F) {
	f.Add(byte(0), []byte("key"), make([]byte, 512), uint64(0))
	f.Add(byte(2), []byte("another key"), make([]byte, 33), uint64(1<<63))
	f.Fuzz(func(t *testing.T, keySel byte, keyBytes, data []byte, sector uint64) {
		data = fuzzBound(data)
		if len(data) < BlockSize {
			return
		}
		key := append(fuzzKey(keySel, keyBytes), fuzzKey(keySel, append([]byte{1}, keyBytes...))...)
		x, err := NewXTS(key)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(data))
		x.Encrypt(got, data, sector)
		x.Decrypt(got, got, sector)
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes: decryption does not invert encryption", len(data))
		}
		ref, _ := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, key)
		want := xtsStealing(ref, data, sector)
		x.Encrypt(got, data, sector)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: differs from x/crypto/xts", len(data))
		}
		if len(data)%BlockSize != 0 {
			return
		}
		// The same data as consecutive sectors, of 512 bytes where they
		// fit, else of a block.
		size := BlockSize
		if len(data)%512 == 0 {
			size = 512
		}
		for i := 0; i < len(data); i += size {
			ref.Encrypt(want[i:i+size], data[i:i+size], sector+uint64(i/size))
		}
		x.EncryptSectors(got, data, size, sector)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes in sectors of %d: differs from x/crypto/xts sector by sector", len(data), size)
		}
		x.DecryptSectors(got, got, size, sector)
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes in sectors of %d: decryption does not invert encryption", len(data), size)
		}
	})
}

// xtsStealing returns the XTS encryption of data (at least a block) in
// sector, with IEEE 1619's ciphertext stealing for a partial last block,
// from ref, which encrypts whole blocks only (golang.org/x/crypto/xts):
// the last whole block encrypted as usual, CC, gives the partial block its
// first bytes, and the partial block padded with the rest of CC, encrypted
// under the next block's tweak, takes the last whole block's place.
func xtsStealing(ref *xts.Cipher, data []byte, sector uint64) []byte {
	tail := len(data) % BlockSize
	whole := len(data) - tail
	out := make([]byte, len(data))
	ref.Encrypt(out[:whole], data[:whole], sector)
	if tail == 0 {
		return out
	}
	cc := bytes.Clone(out[whole-BlockSize : whole])
	padded := append(append(bytes.Clone(data[:whole]), data[whole:]...), cc[tail:]...)
	enc := make([]byte, len(padded))
	ref.Encrypt(enc, padded, sector)
	copy(out[whole-BlockSize:], enc[whole:])
	copy(out[whole:], cc[:tail])
	return out
}

// autoName is the implementation NewCipher picks, for the fuzz targets.
func autoName() string { name, _ := AutoImplementation(); return name }
