package main

//lint:file-ignore SA1019 golang.org/x/crypto/twofish (the package this module replaces) and crypto/cipher's CFB and OFB (modes Twofish is used in) are the references compared with.

import (
	"bytes"
	"crypto/cipher"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpu"
	"github.com/twofish-go/twofish/internal/kat"
	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"
)

// mctPrefix is how many Monte Carlo records of each key size selftest runs
// without -full: 10 of the 400, so 4 files x 3 key sizes x 10 records x
// 10,000 operations, a fraction of a second for each implementation.
const mctPrefix = 10

// runSelftest implements "twofish selftest": the official known-answer and
// Monte Carlo tests through each implementation's widest kernel, and a
// differential test of each implementation's modes against generic (and
// generic's against golang.org/x/crypto/twofish), a line per
// implementation. It exits with status 1 if any fails.
func runSelftest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("selftest", " [-full] [-impl NAME|auto|ct|all] [-seed N]", stderr)
	full := fs.Bool("full", false, fmt.Sprintf("run all 400 Monte Carlo records of each key size, not the first %d", mctPrefix))
	impl := fs.String("impl", "all", "test the implementation `name` only (auto: NewCipher's kernels for each shape, ct: NewCipherConstantTime's), or all (auto, ct and every one this CPU runs)")
	seedFlag := fs.String("seed", "", "seed of the random differential tests, a `number`, to replay a failure (default: random)")
	if !parseFlags(fs, args) {
		return exitUsage
	}
	impls, skipped, err := selectImpls(*impl)
	if err != nil {
		fmt.Fprintln(stderr, "twofish selftest:", err)
		fs.Usage()
		return exitUsage
	}
	var seed uint64
	if *seedFlag != "" {
		if seed, err = strconv.ParseUint(*seedFlag, 10, 64); err != nil {
			fmt.Fprintf(stderr, "twofish selftest: -seed %q: want a number\n", *seedFlag)
			fs.Usage()
			return exitUsage
		}
	} else {
		var b [8]byte
		crand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}

	vectors, err := loadVectors(*full)
	if err != nil {
		fmt.Fprintln(stderr, "twofish selftest:", err)
		return exitFailure
	}
	maxLanes := 1
	for _, im := range twofish.Implementations() {
		maxLanes = max(maxLanes, im.Blocks)
	}
	width := 0
	for _, name := range append(impls, skipped...) {
		width = max(width, len(name))
	}
	status := exitOK
	for _, name := range impls {
		blocks := 1
		c, err := newCipher(name, make([]byte, 16))
		if err != nil {
			fmt.Fprintln(stderr, "twofish selftest:", err)
			return exitFailure
		}
		for _, im := range twofish.Implementations() {
			if im.Name == c.Implementation() {
				blocks = im.Blocks
			}
		}
		rng := rand.New(rand.NewChaCha8(seedBytes(seed)))
		summary, err := selftestImpl(name, blocks, maxLanes, vectors, rng)
		if err != nil {
			fmt.Fprintf(stdout, "%-*s  FAIL     %v (-seed %d replays it)\n", width, name, err, seed)
			status = exitFailure
		} else {
			fmt.Fprintf(stdout, "%-*s  ok       %s\n", width, name, summary)
		}
	}
	for _, name := range skipped {
		fmt.Fprintf(stdout, "%-*s  skipped  not supported on this CPU\n", width, name)
	}
	return status
}

// seedBytes expands seed into a ChaCha8 seed.
func seedBytes(seed uint64) [32]byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	return s
}

// vectors are the official test files selftest runs.
type vectors struct {
	table []kat.Record            // ECB_TBL
	mct   map[string][]kat.Record // Monte Carlo, by file, shortened unless -full
	full  bool
}

// loadVectors parses the embedded files, keeping the first mctPrefix
// Monte Carlo records of each key size unless full.
func loadVectors(full bool) (*vectors, error) {
	v := &vectors{mct: map[string][]kat.Record{}, full: full}
	var err error
	if v.table, err = kat.Load(kat.ECBTable); err != nil {
		return nil, err
	}
	for _, name := range kat.MonteCarloFiles {
		recs, err := kat.Load(name)
		if err != nil {
			return nil, err
		}
		if !full {
			recs = kat.Prefix(recs, mctPrefix)
		}
		v.mct[name] = recs
	}
	return v, nil
}

// selftestImpl runs the tests on the implementation name, whose widest
// kernel takes blocks blocks, and returns what ran or the first failure.
// A panic is a failure.
func selftestImpl(name string, blocks, maxLanes int, v *vectors, rng *rand.Rand) (summary string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	fill := make([]byte, blocks*twofish.BlockSize)
	fillRand(rng, fill)
	for i, r := range v.table {
		h, err := newLanes(name, r.Key, blocks, i, fill)
		if err != nil {
			return "", err
		}
		record := fmt.Sprintf("%s record I=%d (%d-bit key)", kat.ECBTable, r.Index, 8*r.KeySize)
		b := bytes.Clone(r.PT)
		if err := h.crypt(b, false); err != nil {
			return "", fmt.Errorf("%s, encryption: %v", record, err)
		}
		if !bytes.Equal(b, r.CT) {
			return "", fmt.Errorf("%s: encryption gives %x, want %x", record, b, r.CT)
		}
		if err := h.crypt(b, true); err != nil {
			return "", fmt.Errorf("%s, decryption: %v", record, err)
		}
		if !bytes.Equal(b, r.PT) {
			return "", fmt.Errorf("%s: decryption gives %x, want %x", record, b, r.PT)
		}
	}
	mct := 0
	for _, file := range kat.MonteCarloFiles {
		for i, r := range v.mct[file] {
			h, err := newLanes(name, r.Key, blocks, i, fill)
			if err != nil {
				return "", err
			}
			var laneErr error
			got, want, err := kat.MonteCarlo(file, r, func(b []byte, decrypt bool) {
				if err := h.crypt(b, decrypt); err != nil && laneErr == nil {
					laneErr = err
				}
			})
			if err != nil {
				return "", err
			}
			record := fmt.Sprintf("%s record I=%d (%d-bit key)", file, r.Index, 8*r.KeySize)
			if laneErr != nil {
				return "", fmt.Errorf("%s: %v", record, laneErr)
			}
			if !bytes.Equal(got, want) {
				return "", fmt.Errorf("%s: got %x, want %x", record, got, want)
			}
			mct++
		}
	}
	ref := "generic"
	if name == "generic" {
		ref = "golang.org/x/crypto/twofish"
	}
	cases, err := differential(name, maxLanes, rng)
	if err != nil {
		return "", fmt.Errorf("differential test: %v", err)
	}
	prefix := fmt.Sprintf("first %d per key size; -full for all 400", mctPrefix)
	if v.full {
		prefix = "all"
	}
	return fmt.Sprintf("%d known answers (encrypt and decrypt, %d-block ECB calls), %d Monte Carlo records (%s), %d random cases against %s (single blocks and 6 modes, streams in two calls) and x/crypto's block (GCM, OCB, EAX; %s GHASH, %s OCB offsets), 3 key sizes",
		len(v.table), blocks, mct, prefix, cases, ref, cpu.Host().GHASH.Name, cpu.Host().OCBMask.Name), nil
}

// lanes runs single blocks through an implementation's widest kernel by
// way of the public ECB mode: the block under test sits in one lane of a
// call of as many blocks as the kernel takes, and the other lanes hold
// random blocks whose results are checked against generic.
type lanes struct {
	enc, dec         cipher.BlockMode
	off              int // of the lane under test
	in, out          []byte
	wantEnc, wantDec []byte // generic's ECB encryption and decryption of in
}

// newLanes returns lanes for the implementation name with key, blocks
// lanes wide, testing lane i mod blocks, with the others from fill.
func newLanes(name string, key []byte, blocks, i int, fill []byte) (*lanes, error) {
	c, err := newCipher(name, key)
	if err != nil {
		return nil, err
	}
	g, err := twofish.NewCipherImpl(key, "generic")
	if err != nil {
		return nil, err
	}
	n := blocks * twofish.BlockSize
	h := &lanes{
		off: i % blocks * twofish.BlockSize,
		in:  bytes.Clone(fill[:n]), out: make([]byte, n),
		wantEnc: make([]byte, n), wantDec: make([]byte, n),
	}
	h.enc, h.dec = laneModes(c)
	twofish.NewECBEncrypter(g).CryptBlocks(h.wantEnc, h.in)
	twofish.NewECBDecrypter(g).CryptBlocks(h.wantDec, h.in)
	return h, nil
}

// laneModes returns the ECB modes by which lanes reach c's widest kernel.
// The tests replace it with modes that go wrong in one direction or one
// lane, which no Cipher can be made to do, to see selftest report them.
var laneModes = func(c *twofish.Cipher) (enc, dec cipher.BlockMode) {
	return twofish.NewECBEncrypter(c), twofish.NewECBDecrypter(c)
}

// crypt encrypts or decrypts block in place through the widest kernel and
// checks the other lanes.
func (h *lanes) crypt(block []byte, decrypt bool) error {
	end := h.off + twofish.BlockSize
	copy(h.in[h.off:end], block)
	want := h.wantEnc
	if decrypt {
		h.dec.CryptBlocks(h.out, h.in)
		want = h.wantDec
	} else {
		h.enc.CryptBlocks(h.out, h.in)
	}
	copy(block, h.out[h.off:end])
	if !bytes.Equal(h.out[:h.off], want[:h.off]) || !bytes.Equal(h.out[end:], want[end:]) {
		return fmt.Errorf("a random block beside lane %d differs from generic's result", h.off/twofish.BlockSize)
	}
	return nil
}

// A keyed is one keyed cipher in every mode, for the differential test.
type keyed struct {
	block cipher.Block
	xts   interface {
		Encrypt(ciphertext, plaintext []byte, sectorNum uint64)
		Decrypt(plaintext, ciphertext []byte, sectorNum uint64)
	}
	std bool // use crypto/cipher's modes, not package twofish's
	// cut is where a stream mode's input is split between two calls of
	// XORKeyStream, so that the second continues the first's partial
	// block; 0 for one call.
	cut int
	// The AEADs: GCM with a 12-byte nonce, OCB with a 12-byte nonce and
	// EAX with a 16-byte one, all with 16-byte tags.
	gcm, ocb, eax cipher.AEAD
}

// aeads returns the AEADs of b: crypto/cipher's GCM for std (its GHASH is
// independent of ours), else package twofish's; OCB and EAX are package
// twofish's, whose code for a cipher.Block other than a *Cipher takes one
// block at a time, without the kernels' batches or OCB's offset passes.
func (k *keyed) aeads(b cipher.Block) (err error) {
	if k.std {
		k.gcm, err = cipher.NewGCM(b)
	} else {
		k.gcm, err = twofish.NewGCM(b)
	}
	if err == nil {
		k.ocb, err = twofish.NewOCB(b, 12, 16)
	}
	if err == nil {
		k.eax, err = twofish.NewEAX(b, 16, 16)
	}
	return err
}

// newKeyed returns the implementation name keyed with key (and xtsKey for
// XTS); "xcrypto" is golang.org/x/crypto/twofish through crypto/cipher and
// x/crypto/xts.
func newKeyed(name string, key, xtsKey []byte) (*keyed, error) {
	if name == "xcrypto" {
		b, err := xtwofish.NewCipher(key)
		if err != nil {
			return nil, err
		}
		x, err := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, xtsKey)
		if err != nil {
			return nil, err
		}
		k := &keyed{block: b, xts: x, std: true}
		return k, k.aeads(b)
	}
	c, err := newCipher(name, key)
	if err != nil {
		return nil, err
	}
	x, err := newXTS(name, xtsKey)
	if err != nil {
		return nil, err
	}
	k := &keyed{block: c, xts: x}
	return k, k.aeads(c)
}

// xorKeyStream runs s over src into dst in two calls, split at k.cut.
func (k *keyed) xorKeyStream(s cipher.Stream, dst, src []byte) {
	cut := min(k.cut, len(src))
	s.XORKeyStream(dst[:cut], src[:cut])
	s.XORKeyStream(dst[cut:], src[cut:])
}

// xtsSectors runs XTS over src into dst as consecutive sectors of size
// bytes from sector first: EncryptSectors or DecryptSectors of package
// twofish, x/crypto/xts one sector at a time.
func (k *keyed) xtsSectors(dst, src []byte, size int, first uint64, decrypt bool) {
	if x, ok := k.xts.(*twofish.XTS); ok {
		if decrypt {
			x.DecryptSectors(dst, src, size, first)
		} else {
			x.EncryptSectors(dst, src, size, first)
		}
		return
	}
	for i := 0; i < len(src); i += size {
		if decrypt {
			k.xts.Decrypt(dst[i:i+size], src[i:i+size], first+uint64(i/size))
		} else {
			k.xts.Encrypt(dst[i:i+size], src[i:i+size], first+uint64(i/size))
		}
	}
}

// diffSectorSize is the sector of the differential test's XTS over many
// sectors for a buffer of n bytes, a whole number of blocks: the largest
// of 512 bytes (a half-group, which the AVX-512 kernels take two at a
// time), 256, ..., 16 that divides n.
func diffSectorSize(n int) int {
	size := 512
	for n%size != 0 {
		size /= 2
	}
	return size
}

// A diffOp is one direction of one mode in the differential test.
type diffOp struct {
	name   string
	blocks bool // whole blocks only
	xts    bool // at least one block
	run    func(k *keyed, dst, src, iv []byte, sector uint64)
}

// diffOps are the operations the differential test compares.
var diffOps = []diffOp{
	{"ECB encryption", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		if k.std {
			blockLoop(k.block.Encrypt, twofish.BlockSize)(copyInto(dst, src))
			return
		}
		twofish.NewECBEncrypter(k.block).CryptBlocks(dst, src)
	}},
	{"ECB decryption", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		if k.std {
			blockLoop(k.block.Decrypt, twofish.BlockSize)(copyInto(dst, src))
			return
		}
		twofish.NewECBDecrypter(k.block).CryptBlocks(dst, src)
	}},
	{"Encrypt of each block", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		blockLoop(k.block.Encrypt, twofish.BlockSize)(copyInto(dst, src))
	}},
	{"Decrypt of each block", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		blockLoop(k.block.Decrypt, twofish.BlockSize)(copyInto(dst, src))
	}},
	{"CBC encryption", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		pick(k, cipher.NewCBCEncrypter, twofish.NewCBCEncrypter)(k.block, iv).CryptBlocks(dst, src)
	}},
	{"CBC decryption", true, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		pick(k, cipher.NewCBCDecrypter, twofish.NewCBCDecrypter)(k.block, iv).CryptBlocks(dst, src)
	}},
	{"CFB encryption", false, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		k.xorKeyStream(pick(k, cipher.NewCFBEncrypter, twofish.NewCFBEncrypter)(k.block, iv), dst, src)
	}},
	{"CFB decryption", false, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		k.xorKeyStream(pick(k, cipher.NewCFBDecrypter, twofish.NewCFBDecrypter)(k.block, iv), dst, src)
	}},
	{"OFB", false, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		k.xorKeyStream(pick(k, cipher.NewOFB, twofish.NewOFB)(k.block, iv), dst, src)
	}},
	{"CTR", false, false, func(k *keyed, dst, src, iv []byte, _ uint64) {
		k.xorKeyStream(pick(k, cipher.NewCTR, twofish.NewCTR)(k.block, iv), dst, src)
	}},
	{"XTS encryption", false, true, func(k *keyed, dst, src, _ []byte, sector uint64) {
		k.xts.Encrypt(dst, src, sector)
	}},
	{"XTS decryption", false, true, func(k *keyed, dst, src, _ []byte, sector uint64) {
		k.xts.Decrypt(dst, src, sector)
	}},
	{"XTS encryption of sectors", true, true, func(k *keyed, dst, src, _ []byte, sector uint64) {
		k.xtsSectors(dst, src, diffSectorSize(len(src)), sector, false)
	}},
	{"XTS decryption of sectors", true, true, func(k *keyed, dst, src, _ []byte, sector uint64) {
		k.xtsSectors(dst, src, diffSectorSize(len(src)), sector, true)
	}},
}

// An aeadOp is one AEAD of a keyed, for the differential test.
type aeadOp struct {
	name string
	of   func(*keyed) cipher.AEAD
}

// aeadOps are the AEADs the differential test compares with x/crypto's
// block, sealing and opening.
var aeadOps = []aeadOp{
	{"GCM", func(k *keyed) cipher.AEAD { return k.gcm }},
	{"OCB", func(k *keyed) cipher.AEAD { return k.ocb }},
	{"EAX", func(k *keyed) cipher.AEAD { return k.eax }},
}

// diffAEAD seals src with associated data ad under got's and want's AEAD
// op, the first in place, compares the two, and opens got's sealed
// message in place and with its last byte changed.
func diffAEAD(op int, got, want *keyed, src, ad, nonce []byte) error {
	g, w := aeadOps[op].of(got), aeadOps[op].of(want)
	nonce = nonce[:g.NonceSize()]
	sealed := w.Seal(nil, nonce, src, ad)
	buf := make([]byte, len(src), len(src)+g.Overhead())
	copy(buf, src)
	if out := g.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(out, sealed) {
		return fmt.Errorf("%s seal of %d bytes differs", aeadOps[op].name, len(src))
	}
	if out, err := g.Open(buf[:0], nonce, buf[:len(sealed)], ad); err != nil || !bytes.Equal(out, src) {
		return fmt.Errorf("%s open of %d bytes: %v", aeadOps[op].name, len(src), err)
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := g.Open(nil, nonce, sealed, ad); err == nil {
		return fmt.Errorf("%s opens %d bytes with a changed tag", aeadOps[op].name, len(src))
	}
	return nil
}

// pick returns crypto/cipher's constructor std for k.std, else package
// twofish's own.
func pick[F any](k *keyed, std, own F) F {
	if k.std {
		return std
	}
	return own
}

// copyInto copies src to dst and returns dst[:len(src)], for operations
// that work in place.
func copyInto(dst, src []byte) []byte { return dst[:copy(dst, src)] }

// differential compares every mode of the implementation name with
// generic's (generic's with golang.org/x/crypto/twofish's) on random keys
// of each size, IVs, sector numbers and data, for every whole number of
// blocks up to twice the widest kernel's and more, and lengths between,
// and returns the number of cases. The implementation works in place, the
// reference from one buffer to another.
func differential(name string, maxLanes int, rng *rand.Rand) (int, error) {
	ref, refName := "generic", "generic"
	if name == "generic" {
		ref, refName = "xcrypto", "golang.org/x/crypto/twofish"
	}
	var lengths []int
	for n := 0; n <= 2*maxLanes+3; n++ {
		lengths = append(lengths, n*twofish.BlockSize, n*twofish.BlockSize+1+rng.IntN(twofish.BlockSize-1))
	}
	for range 16 {
		lengths = append(lengths, rng.IntN(2048))
	}
	lengths = append(lengths, 4096+16*rng.IntN(64), 65536+rng.IntN(4096))
	cases := 0
	for _, keySize := range []int{16, 24, 32} {
		key, xtsKey := make([]byte, keySize), make([]byte, 2*keySize)
		fillRand(rng, key)
		fillRand(rng, xtsKey)
		got, err := newKeyed(name, key, xtsKey)
		if err != nil {
			return 0, err
		}
		want, err := newKeyed(ref, key, xtsKey)
		if err != nil {
			return 0, err
		}
		xref, err := newKeyed("xcrypto", key, xtsKey)
		if err != nil {
			return 0, err
		}
		iv := make([]byte, twofish.BlockSize)
		for _, n := range lengths {
			src := make([]byte, n)
			fillRand(rng, src)
			fillRand(rng, iv)
			if rng.IntN(8) == 0 {
				// A counter about to wrap around 64 and 128 bits.
				binary.BigEndian.PutUint64(iv[8:], ^uint64(rng.IntN(4)))
			}
			sector := rng.Uint64()
			got.cut = rng.IntN(n + 1)
			for _, op := range diffOps {
				if op.blocks && n%twofish.BlockSize != 0 || op.xts && n < twofish.BlockSize {
					continue
				}
				if op.xts && want.std && n%twofish.BlockSize != 0 {
					continue // x/crypto/xts has no ciphertext stealing
				}
				w := make([]byte, n)
				op.run(want, w, src, iv, sector)
				g := bytes.Clone(src)
				op.run(got, g, g, iv, sector)
				if !bytes.Equal(g, w) {
					return cases, fmt.Errorf("%s of %d bytes with a %d-bit key differs from %s's", op.name, n, 8*keySize, refName)
				}
				cases++
			}
			for op := range aeadOps {
				if err := diffAEAD(op, got, xref, src, src[:rng.IntN(n+1)], iv); err != nil {
					return cases, fmt.Errorf("%v with a %d-bit key, against crypto/cipher's GCM and this package's OCB and EAX over golang.org/x/crypto/twofish", err, 8*keySize)
				}
				cases++
			}
		}
	}
	if cases == 0 {
		return 0, errors.New("no cases ran")
	}
	return cases, nil
}

// fillRand fills b from rng.
func fillRand(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}
