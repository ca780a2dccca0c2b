package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
)

// rng returns a generator for test data, seeded from the test's name so
// that a failure repeats.
func rng(t testing.TB) *rand.Rand {
	var seed [32]byte
	copy(seed[:], t.Name())
	return rand.New(rand.NewChaCha8(seed))
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// reference encrypts or decrypts in with the library in one call on the
// whole input, as enc and dec should by the chunk.
func reference(t testing.TB, decrypt bool, mode string, key, iv, in []byte, padded bool, sectorSize int, sector uint64) []byte {
	t.Helper()
	out := bytes.Clone(in)
	if mode == "xts" {
		x, err := twofish.NewXTS(key)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(out); i += sectorSize {
			s := out[i:min(i+sectorSize, len(out))]
			if decrypt {
				x.Decrypt(s, s, sector)
			} else {
				x.Encrypt(s, s, sector)
			}
			sector++
		}
		return out
	}
	c, err := twofish.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	if padded && !decrypt {
		n := 16 - len(out)%16
		out = append(out, bytes.Repeat([]byte{byte(n)}, n)...)
	}
	switch mode + map[bool]string{false: " enc", true: " dec"}[decrypt] {
	case "ecb enc":
		twofish.NewECBEncrypter(c).CryptBlocks(out, out)
	case "ecb dec":
		twofish.NewECBDecrypter(c).CryptBlocks(out, out)
	case "cbc enc":
		twofish.NewCBCEncrypter(c, iv).CryptBlocks(out, out)
	case "cbc dec":
		twofish.NewCBCDecrypter(c, iv).CryptBlocks(out, out)
	case "cfb enc":
		twofish.NewCFBEncrypter(c, iv).XORKeyStream(out, out)
	case "cfb dec":
		twofish.NewCFBDecrypter(c, iv).XORKeyStream(out, out)
	case "ofb enc", "ofb dec":
		twofish.NewOFB(c, iv).XORKeyStream(out, out)
	case "ctr enc", "ctr dec":
		twofish.NewCTR(c, iv).XORKeyStream(out, out)
	case "gcm enc", "ocb enc", "gcm dec", "ocb dec":
		a, err := newAEAD(c, mode, len(iv))
		if err != nil {
			t.Fatal(err)
		}
		if !decrypt {
			return a.Seal(nil, iv, in, nil)
		}
		if out, err = a.Open(nil, iv, in, nil); err != nil {
			t.Fatal(err)
		}
	}
	if padded && decrypt {
		out = out[:len(out)-int(out[len(out)-1])]
	}
	return out
}

// cryptCase is one run of enc, then dec, checked against reference.
type cryptCase struct {
	mode       string
	keySize    int // of one key; xts has two
	size       int
	nopad      bool
	iv         []byte // nil: enc makes one up
	sectorSize int    // xts; 0 for the default
	sector     uint64
	pipes      bool   // stdin and stdout rather than files
	impl       string // "" for auto
	procs      int    // GOMAXPROCS, 0 for the default
}

// run runs c and checks that enc gives the reference ciphertext and dec the
// plaintext back.
func (c cryptCase) run(t *testing.T, r *rand.Rand, dir string) {
	t.Helper()
	keyLen := c.keySize
	if c.mode == "xts" {
		keyLen *= 2
	}
	key := randomBytes(r, keyLen)
	pt := randomBytes(r, c.size)
	args := []string{"-mode", c.mode, "-key", hex.EncodeToString(key)}
	if c.nopad {
		args = append(args, "-nopad")
	}
	if c.sectorSize != 0 {
		args = append(args, "-sector-size", fmt.Sprint(c.sectorSize))
	}
	if c.sector != 0 {
		args = append(args, "-sector", fmt.Sprint(c.sector))
	}
	if c.impl != "" {
		args = append(args, "-impl", c.impl)
	}
	var env []string
	if c.procs != 0 {
		env = []string{fmt.Sprintf("GOMAXPROCS=%d", c.procs)}
	}
	needsIV := c.mode != "ecb" && c.mode != "xts"
	padded := (c.mode == "ecb" || c.mode == "cbc") && !c.nopad
	sectorSize := c.sectorSize
	if sectorSize == 0 {
		sectorSize = 512
	}
	name := fmt.Sprintf("%s key=%d size=%d nopad=%v pipes=%v impl=%q procs=%d", c.mode, 8*c.keySize, c.size, c.nopad, c.pipes, c.impl, c.procs)

	encArgs := append([]string{"enc"}, args...)
	iv := c.iv
	if needsIV && iv != nil {
		encArgs = append(encArgs, "-iv", hex.EncodeToString(iv))
	}
	var ct []byte
	var res execResult
	if c.pipes {
		res = exe(t, pt, env, encArgs...)
		ct = res.stdout
	} else {
		in, out := filepath.Join(dir, "pt"), filepath.Join(dir, "ct")
		os.Remove(out)
		writeFile(t, in, pt)
		res = exe(t, nil, env, append(encArgs, "-in", in, "-out", out)...)
		if res.code == 0 {
			ct = readFile(t, out)
		}
	}
	if res.code != 0 {
		t.Fatalf("%s: enc: exit status %d: %s", name, res.code, res.stderr)
	}
	if needsIV && iv == nil {
		line := strings.TrimSuffix(string(res.stderr), "\n")
		got, ok := strings.CutPrefix(line, "iv=")
		var err error
		if iv, err = hex.DecodeString(got); !ok || err != nil || len(iv) != ivSize(c.mode) || strings.Contains(line, "\n") {
			t.Fatalf("%s: enc made up an IV but printed %q", name, res.stderr)
		}
	} else if len(res.stderr) != 0 {
		t.Errorf("%s: enc wrote to stderr: %s", name, res.stderr)
	}
	if want := reference(t, false, c.mode, key, iv, pt, padded, sectorSize, c.sector); !bytes.Equal(ct, want) {
		t.Fatalf("%s: enc output (%d bytes) differs from the library's (%d bytes)", name, len(ct), len(want))
	}

	decArgs := append([]string{"dec"}, args...)
	if needsIV {
		decArgs = append(decArgs, "-iv", hex.EncodeToString(iv))
	}
	var back []byte
	if c.pipes {
		res = exe(t, ct, env, decArgs...)
		back = res.stdout
	} else {
		in, out := filepath.Join(dir, "ct"), filepath.Join(dir, "back")
		os.Remove(out)
		res = exe(t, nil, env, append(decArgs, "-in", in, "-out", out)...)
		if res.code == 0 {
			back = readFile(t, out)
		}
	}
	if res.code != 0 || len(res.stderr) != 0 {
		t.Fatalf("%s: dec: exit status %d: %s", name, res.code, res.stderr)
	}
	if !bytes.Equal(back, pt) {
		t.Fatalf("%s: dec did not restore the input", name)
	}
}

// TestEncDec runs every mode through enc and dec, on lengths that are and
// are not whole blocks, from empty to several chunks, through files and
// pipes, with several workers, against the library's modes on the whole
// input at once: so the chunking, and the counter, IV and sector number of
// each chunk, are checked.
func TestEncDec(t *testing.T) {
	sizes := []int{0, 1, 15, 16, 17, 100, 512, 4095, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 17}
	if testing.Short() {
		sizes = []int{0, 17, 512, chunkSize + 17}
	}
	r := rng(t)
	dir := t.TempDir()
	i := 0
	for _, mode := range cryptModes {
		for _, size := range sizes {
			for _, nopad := range []bool{false, true} {
				if nopad && mode != "ecb" && mode != "cbc" {
					continue
				}
				if nopad && size%16 != 0 || mode == "xts" && size%512 > 0 && size%512 < 16 {
					continue // errors, tested elsewhere
				}
				i++
				c := cryptCase{mode: mode, keySize: []int{16, 24, 32}[i%3], size: size, nopad: nopad,
					pipes: i%2 == 0, procs: []int{0, 1, 5}[i%3]}
				if i%4 == 0 {
					c.iv = randomBytes(r, ivSize(mode))
				}
				c.run(t, r, dir)
			}
		}
	}
}

// TestEncDecChunkEdges checks the state that crosses chunk boundaries: a
// CTR counter that carries across 64 and wraps at 128 bits inside a chunk
// and at its boundary, and XTS sector numbers across chunks for several
// sector sizes and first sectors, and of a short last sector after whole
// ones in the last chunk.
func TestEncDecChunkEdges(t *testing.T) {
	r := rng(t)
	dir := t.TempDir()
	size := 2*chunkSize + 100
	if testing.Short() {
		size = chunkSize + 100
	}
	blocksPerChunk := uint64(chunkSize / 16)
	for _, iv := range []string{
		"0000000000000000ffffffffffffffff",
		"ffffffffffffffffffffffffffffffff",
		fmt.Sprintf("ffffffffffffffff%016x", -blocksPerChunk),       // the carry at the first chunk boundary
		fmt.Sprintf("ffffffffffffffff%016x", -blocksPerChunk-1),     // the carry just inside the second chunk
		fmt.Sprintf("0123456789abcdef%016x", -(blocksPerChunk / 2)), // the carry inside the first chunk
	} {
		b, _ := hex.DecodeString(iv)
		cryptCase{mode: "ctr", keySize: 32, size: size, iv: b, procs: 3}.run(t, r, dir)
	}
	for _, c := range []cryptCase{
		{sectorSize: 16, sector: -(uint64(size-100+48) / 16), size: size - 100 + 48}, // up to the last sector number, 2^64-1
		{sectorSize: 4096, sector: 7},
		{sectorSize: 3 * 16 << 10}, // does not divide the chunk size
		{sectorSize: 2 << 20, sector: 1 << 40},
		{sectorSize: 512, sector: 12345, size: size - 100 + 16},      // a one-block last sector
		{sectorSize: 512, sector: 99, size: size - 100 + 2*512 + 16}, // whole sectors, then a one-block one, in the last chunk
	} {
		c.mode, c.keySize, c.procs = "xts", 16, 4
		if c.size == 0 {
			c.size = size
		}
		c.run(t, r, dir)
	}
}

// TestEncDecImplementations checks that every supported implementation
// gives the same output, through enc with -impl (with -short, in ctr only).
func TestEncDecImplementations(t *testing.T) {
	r := rng(t)
	dir := t.TempDir()
	modes := []string{"cbc", "ctr", "xts"}
	if testing.Short() {
		modes = modes[1:2] // the kernels' bulk path; the others run without -short
	}
	for _, im := range twofish.Implementations() {
		if !im.Supported {
			continue
		}
		for _, mode := range modes {
			cryptCase{mode: mode, keySize: 32, size: chunkSize + 1000, impl: im.Name, procs: 3}.run(t, r, dir)
		}
	}
}

// Fixed parameters for the error tests.
const (
	key128 = "000102030405060708090a0b0c0d0e0f"
	key256 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	iv128  = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
)

// TestEncDecErrors checks every error enc and dec report before and while
// working: one line on stderr, status 2 for a bad command line and 1 for a
// failure, nothing on stdout, no output file.
func TestEncDecErrors(t *testing.T) {
	dir := t.TempDir()
	pt := randomBytes(rng(t), 1000)
	in := filepath.Join(dir, "in")
	writeFile(t, in, pt)
	ct := mustRun(t, pt, nil, "enc", "-mode", "cbc", "-key", key128, "-iv", iv128)
	ctFile := filepath.Join(dir, "ct")
	writeFile(t, ctFile, ct)
	truncated := filepath.Join(dir, "truncated")
	writeFile(t, truncated, ct[:len(ct)-1])
	oneOver := filepath.Join(dir, "17-bytes")
	writeFile(t, oneOver, make([]byte, 17))
	empty := filepath.Join(dir, "empty")
	writeFile(t, empty, nil)
	badKeyFile := filepath.Join(dir, "badkey")
	writeFile(t, badKeyFile, []byte("not hex\n"))
	shortKeyFile := filepath.Join(dir, "shortkey")
	writeFile(t, shortKeyFile, []byte("0011\n"))
	existing := filepath.Join(dir, "existing")
	writeFile(t, existing, []byte("keep me"))
	notDir := filepath.Join(in, "x") // in is a file
	// The operating system's words for what goes wrong with them.
	_, err := os.Open(filepath.Join(dir, "nosuch"))
	noSuchFile := osError(t, err)
	_, err = os.CreateTemp(in, "")
	notADirectory := osError(t, err)
	out := filepath.Join(dir, "out")
	// Bad padding: a last block that decrypts to garbage.
	badPad := bytes.Clone(ct)
	badPad[len(badPad)-20] ^= 1
	badPadFile := filepath.Join(dir, "badpad")
	writeFile(t, badPadFile, badPad)
	ivFile := filepath.Join(dir, "iv")
	writeFile(t, ivFile, []byte(iv128+"\n"))

	for _, tc := range []struct {
		status int
		want   string
		args   []string
	}{
		{2, "-mode is required", []string{"enc", "-key", key128}},
		{2, `-mode "foo": unknown mode`, []string{"enc", "-mode", "foo", "-key", key128}},
		{2, "a key is required", []string{"enc", "-mode", "ctr"}},
		{2, "-key, -key-file and -key-env: give one", []string{"enc", "-mode", "ctr", "-key", key128, "-key-file", badKeyFile}},
		{2, "-key: not hex", []string{"enc", "-mode", "ctr", "-key", "000102030405060708090a0b0c0d0e0g"}},
		{2, "-key: not hex", []string{"enc", "-mode", "ctr", "-key", key128 + "0"}},
		{2, "the key is 15 bytes; ctr takes 16, 24 or 32 bytes", []string{"enc", "-mode", "ctr", "-key", key128[2:]}},
		{2, "the key is 16 bytes; xts takes 32, 48 or 64", []string{"enc", "-mode", "xts", "-key", key128}},
		{2, "the key is 40 bytes", []string{"dec", "-mode", "xts", "-key", key256 + key128[:16]}},
		{2, "halves of the xts key are equal", []string{"enc", "-mode", "xts", "-key", key128 + key128}},
		{1, "-key-file " + badKeyFile + ": neither a key in hex (character 1 is not a hex digit) nor a raw key (8 bytes)", []string{"enc", "-mode", "ctr", "-key-file", badKeyFile}},
		{1, "-key-file " + shortKeyFile + ": the key is 2 bytes", []string{"enc", "-mode", "ctr", "-key-file", shortKeyFile}},
		{1, "-key-file " + filepath.Join(dir, "nosuch"), []string{"enc", "-mode", "ctr", "-key-file", filepath.Join(dir, "nosuch")}},
		{2, "-iv: not hex", []string{"enc", "-mode", "cbc", "-key", key128, "-iv", "xyz"}},
		{2, "-iv is 15 bytes; want 16", []string{"enc", "-mode", "cbc", "-key", key128, "-iv", iv128[2:]}},
		{2, "-iv is 1 byte; want 16", []string{"dec", "-mode", "ctr", "-key", key128, "-iv", "00"}},
		{2, "-iv: ecb takes no IV", []string{"enc", "-mode", "ecb", "-key", key128, "-iv", iv128}},
		{2, "-iv: xts takes no IV", []string{"dec", "-mode", "xts", "-key", key256, "-iv", iv128}},
		{2, "-iv: ecb takes no IV", []string{"dec", "-mode", "ecb", "-key", key128, "-iv-file", ivFile, "-in", in, "-out", out}},
		{2, "-iv: xts takes no IV", []string{"enc", "-mode", "xts", "-key", key256, "-iv-file", ivFile, "-in", in, "-out", out}},
		{2, "-iv is required: cfb decryption", []string{"dec", "-mode", "cfb", "-key", key128, "-in", in}},
		{2, "-iv-out: ecb takes no IV", []string{"enc", "-mode", "ecb", "-key", key128, "-iv-out", out}},
		{2, "-iv-out: want a file name, not -", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", "-"}},
		{2, "-iv-out: want a file name", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", ""}},
		{2, "is also the input or the output", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", out}},
		{2, "-iv-out " + in + " is also the input or the output", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", in, "-f"}},
		{2, "-nopad: only ecb and cbc pad", []string{"enc", "-mode", "ctr", "-key", key128, "-nopad"}},
		{2, "-sector-size: only for xts", []string{"enc", "-mode", "ctr", "-key", key128, "-sector-size", "4096"}},
		{2, "-sector: only for xts", []string{"dec", "-mode", "ecb", "-key", key128, "-sector", "1"}},
		{2, "-sector-size 100: want a multiple of 16", []string{"enc", "-mode", "xts", "-key", key256, "-sector-size", "100"}},
		{2, "-sector-size 0", []string{"enc", "-mode", "xts", "-key", key256, "-sector-size", "0"}},
		{2, fmt.Sprintf("-sector-size %d: want a multiple of 16 from 16 to %d", maxSectorSize+16, maxSectorSize), []string{"enc", "-mode", "xts", "-key", key256, "-in", in, "-out", out, "-sector-size", fmt.Sprint(maxSectorSize + 16)}},
		{2, "-impl: unknown implementation", []string{"enc", "-mode", "ctr", "-key", key128, "-impl", "nosuch"}},
		{2, `unexpected argument "extra"`, []string{"enc", "-mode", "ctr", "-key", key128, "extra"}},
		{2, "-in and -out: want a file name or -", []string{"enc", "-mode", "ctr", "-key", key128, "-in", ""}},
		{1, "-in " + filepath.Join(dir, "nosuch") + ": " + noSuchFile, []string{"enc", "-mode", "ctr", "-key", key128, "-in", filepath.Join(dir, "nosuch")}},
		{1, "is a directory", []string{"enc", "-mode", "ctr", "-key", key128, "-in", dir, "-out", out}},
		{1, "-out " + dir + " is a directory", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", dir}},
		{1, "-out " + existing + " exists; -f overwrites it", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", existing}},
		{1, "exists; -f overwrites it", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", existing}},
		{1, "is the input file", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", in}},
		{1, "is the input file", []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", in, "-f"}},
		{1, notADirectory, []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", notDir}},
		{1, "cannot create a file in " + filepath.Join(dir, "nosuch"), []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", filepath.Join(dir, "nosuch", "out")}},
		{1, "the input is 1000 bytes, not a whole number of 16-byte blocks, which -nopad needs", []string{"enc", "-mode", "cbc", "-key", key128, "-iv", iv128, "-nopad", "-in", in, "-out", out}},
		{1, "the input is 1000 bytes, not a whole number of 16-byte blocks: truncated, or not ecb", []string{"dec", "-mode", "ecb", "-key", key128, "-in", in, "-out", out}},
		{1, "not a whole number of 16-byte blocks: truncated", []string{"dec", "-mode", "cbc", "-key", key128, "-iv", iv128, "-in", truncated, "-out", out}},
		{1, "not a whole number of 16-byte blocks: truncated", []string{"dec", "-mode", "cbc", "-key", key128, "-iv", iv128, "-nopad", "-in", truncated, "-out", out}},
		{1, "the input is empty", []string{"dec", "-mode", "cbc", "-key", key128, "-iv", iv128, "-in", empty, "-out", out}},
		{1, "bad PKCS#7 padding", []string{"dec", "-mode", "cbc", "-key", key128, "-iv", iv128, "-in", badPadFile, "-out", out}},
		{1, "bad PKCS#7 padding", []string{"dec", "-mode", "cbc", "-key", key256, "-iv", iv128, "-in", ctFile, "-out", out}},
		{1, "bad PKCS#7 padding", []string{"dec", "-mode", "ecb", "-key", key128, "-in", ctFile, "-out", out}},
		{1, "the last sector is 15 bytes; xts needs at least 16", []string{"enc", "-mode", "xts", "-key", key256, "-in", truncated, "-out", out, "-sector-size", "16"}},
		{1, "the last sector is 8 bytes; xts needs at least 16", []string{"dec", "-mode", "xts", "-key", key256, "-in", in, "-out", out, "-sector-size", "32"}},
		{1, "the last sector is 1 byte; xts needs at least 16", []string{"enc", "-mode", "xts", "-key", key256, "-in", oneOver, "-out", out, "-sector-size", "16"}},
	} {
		r := exe(t, nil, nil, tc.args...)
		checkOneLineError(t, r, tc.status, tc.want, tc.args)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("twofish %q: made %s", tc.args, out)
			os.Remove(out)
		}
		if key := key128[4:]; strings.Contains(string(r.stderr), key) {
			t.Errorf("twofish %q: stderr shows the key:\n%s", tc.args, r.stderr)
		}
	}
	if got := readFile(t, existing); string(got) != "keep me" {
		t.Errorf("the existing output file was changed to %q", got)
	}
	if !bytes.Equal(readFile(t, in), pt) {
		t.Error("the input was changed")
	}
	if names := dirNames(t, dir); len(names) != 10 {
		t.Errorf("files left in the directory: %q", names)
	}
}

// TestEncDecFlagErrors checks that a flag the flag package rejects gives
// its message and a line of synopsis, status 2, and that -h gives the
// whole help.
func TestEncDecFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"enc", "-nosuchflag"}, {"dec", "-mode"}, {"enc", "-sector", "x", "-mode", "xts"}, {"dec", "-iv-out", "f"}} {
		r := exe(t, nil, nil, args...)
		if r.code != exitUsage || len(r.stdout) != 0 || strings.Count(string(r.stderr), "\n") != 2 ||
			!strings.Contains(string(r.stderr), "usage: twofish "+args[0]+" -mode MODE") {
			t.Errorf("twofish %q: exit status %d, stderr:\n%s", args, r.code, r.stderr)
		}
	}
	for _, cmd := range []string{"enc", "dec"} {
		r := exe(t, nil, nil, cmd, "-h")
		for _, want := range []string{"usage: twofish " + cmd, "-sector-size", "PKCS#7", "iv=HEX", "Exit status", "130 interrupted"} {
			if r.code != exitUsage || !strings.Contains(string(r.stderr), want) || strings.Count(string(r.stderr), "usage:") != 1 {
				t.Errorf("twofish %s -h: exit status %d, no %q in:\n%s", cmd, r.code, want, r.stderr)
			}
		}
		// dec has no -iv-out, so its -f has none to overwrite.
		if hasIVOut := strings.Contains(string(r.stderr), "  -iv-out"); strings.Contains(string(r.stderr), "-iv-out file)") != hasIVOut || hasIVOut == (cmd == "dec") {
			t.Errorf("twofish %s -h: -iv-out flag %v, and -f's help disagrees or it should not be there:\n%s", cmd, hasIVOut, r.stderr)
		}
	}
}

// TestXTSSectorRange checks that xts takes sectors up to the last 64-bit
// sector number, a short last one (ciphertext stealing) included, and
// refuses an input that runs past it, in either direction, leaving no
// output: the sector after it took sector 0's tweak, and so encrypted as
// sector 0 does, without a word.
func TestXTSSectorRange(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	pt := randomBytes(rng(t), 1000) // a sector of 512 bytes and one of 488
	const last = "18446744073709551615"
	for _, tc := range []struct {
		sector string
		n      int
		ok     bool
	}{
		{last, 512, true},
		{last, 528, false}, // a short sector, of 16 bytes, after the last
		{"18446744073709551614", 1000, true},
		{"18446744073709551614", 1024 + 16, false},
	} {
		b := pt[:min(tc.n, len(pt))]
		if tc.n > len(pt) {
			b = make([]byte, tc.n)
		}
		writeFile(t, in, b)
		for _, cmd := range []string{"enc", "dec"} {
			args := []string{cmd, "-mode", "xts", "-key", key256, "-sector", tc.sector, "-in", in, "-out", out}
			r := exe(t, nil, nil, args...)
			if tc.ok {
				if r.code != 0 {
					t.Errorf("twofish %q of %d bytes: exit status %d: %s", args, tc.n, r.code, r.stderr)
				}
				os.Remove(out)
				continue
			}
			checkOneLineError(t, r, exitFailure, "the input runs past sector "+last+", the last a 64-bit sector number has", args)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("twofish %q of %d bytes made %s", args, tc.n, out)
				os.Remove(out)
			}
		}
	}
}
