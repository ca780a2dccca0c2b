package main

import (
	"bytes"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twofish-go/twofish"
)

// cryptModes are the modes of enc and dec; gcm and ocb are in aead.go.
var cryptModes = []string{"ecb", "cbc", "cfb", "ofb", "ctr", "xts", "gcm", "ocb"}

// maxSectorSize bounds -sector-size, which is held in memory per sector.
const maxSectorSize = 16 << 20

// cryptConfig is what an enc or dec command line asks for.
type cryptConfig struct {
	decrypt    bool
	mode       string // one of cryptModes
	key        []byte // 16, 24 or 32 bytes; xts: 32, 48 or 64
	iv         []byte // 16 bytes for cbc, cfb, ofb and ctr, the nonce for gcm and ocb; nil for ecb and xts
	randomIV   bool   // enc made iv up
	ivOut      string // file to write the IV to, "" for none
	keyFile    string // the file the key came from, "" for none
	ivFile     string // the file the IV came from, "" for none
	in, out    string // file names, "-" for standard input and output
	force      bool   // overwrite an existing output
	pad        bool   // PKCS#7 padding (ecb and cbc)
	sectorSize int    // xts
	sector     uint64 // xts: the number of the first sector
	impl       string // "auto" or an implementation name
}

// A usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// runEnc implements "twofish enc".
func runEnc(args []string, stdout, stderr io.Writer) int {
	return runCrypt(false, args, stdout, stderr)
}

// runDec implements "twofish dec".
func runDec(args []string, stdout, stderr io.Writer) int {
	return runCrypt(true, args, stdout, stderr)
}

// cryptSynopsis is the usage line of enc and dec, after the command name.
const cryptSynopsis = " -mode MODE (-key HEX | -key-file FILE | -key-env VAR) [-iv HEX | -iv-file FILE] [-in FILE|-] [-out FILE|-] [flags]"

// cryptHelp explains enc and dec after their flags.
const cryptHelp = `
Modes: ecb, cbc, cfb (full-block feedback), ofb, ctr (128-bit big-endian
counter), xts (IEEE 1619, dm-crypt plain64 layout), and the authenticated gcm
and ocb. Keys are 16, 24 or 32 bytes, in hex (-key, which other users see in
ps and the shell keeps in its history, or -key-env) or a file (-key-file) of
hex or, if it is not hex, raw bytes that are neither text nor a few values
repeated; xts takes two of them, 32, 48 or 64 bytes. cbc, cfb, ofb and ctr
take a 16-byte IV, gcm and ocb a nonce (below): if enc has no -iv, it makes a
random one with crypto/rand and, once the output is written, prints it to
stderr as "iv=HEX" (enc -iv-out FILE also writes it to a file; if it cannot
print it, it fails and keeps no output); dec needs -iv, or -iv-file FILE to
read it from a file. An IV given to enc is the caller's to keep unique: a
ctr or ofb IV used twice with one key (or ctr IVs whose counter ranges
overlap) gives away the XOR of the two plaintexts. ecb and cbc
pad with PKCS#7 unless -nopad. xts encrypts each sector of -sector-size bytes
with its number, counting from -sector, as the tweak (sectors of -sector-size
bytes, as LUKS2 and dm-crypt's iv_large_sectors count them; plain dm-crypt
with sectors over 512 bytes counts 512-byte units, which this does not), up
to sector 2^64-1; a short last sector of 16 bytes or more uses ciphertext
stealing.

gcm and ocb (RFC 7253) authenticate: the output is the ciphertext and a
16-byte tag, and dec writes nothing unless the tag is right. -iv is the nonce,
12 bytes unless given (gcm takes 1 to 64, ocb 1 to 15); never use a nonce
twice with one key. Each input is one message, held in memory whole: up to
256 MiB (read from a pipe, up to three times that while it grows), and not
spread over cores.

The input is streamed in 1 MiB chunks: memory stays small for any size, and
ecb, ctr, xts and cbc and cfb decryption spread the chunks over all cores
(GOMAXPROCS). On a terminal, stderr shows progress for inputs from 64 MiB.

An output file is written under a temporary name in its directory and renamed
into place only when all went well, so a failure leaves none; it is created
readable by its owner only (mode 0600; on Windows it takes its folder's
permissions), and never replaces the key or IV file, even with -f. Standard
output ("-out -", the default), a pipe or a device is written as the work
goes, so after a failure what it got must be discarded. dec of ecb
or cbc says whether the padding was right: never run it on input an attacker
may have made (a padding oracle); use gcm, ocb or seal.
Exit status: 0 done, 1 failed, 2 bad command line, 130 interrupted.
`

// runCrypt implements enc (decrypt false) and dec: it reports every error
// in one line on stderr.
func runCrypt(decrypt bool, args []string, stdout, stderr io.Writer) int {
	name := "enc"
	if decrypt {
		name = "dec"
	}
	cfg, err := parseCrypt(name, decrypt, args, stderr)
	if err == nil {
		warnImpl(stderr, name, cfg.impl)
		err = cryptFiles(cfg, stdout, stderr)
	}
	return report(stderr, name, err)
}

// report prints err, if any, on one line of stderr as the command name's,
// unless the flag package has printed it (errReported), and returns the
// exit status: 0 for none, 2 for a usage error, 1 for any other.
func report(stderr io.Writer, name string, err error) int {
	var u usageError
	switch {
	case err == nil:
		return exitOK
	case err == errReported:
		return exitUsage
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "twofish %s: %v\n", name, err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "twofish %s: %v\n", name, err)
	return exitFailure
}

// warnImpl warns on stderr that TWOFISH_IMPL is set but ignored (unknown,
// or not supported here), when the command uses NewCipher's choice (impl
// "auto").
func warnImpl(stderr io.Writer, name, impl string) {
	_, reason := twofish.AutoImplementation()
	if _, why, ignored := strings.Cut(reason, "TWOFISH_IMPL ignored: "); impl == "auto" && ignored {
		fmt.Fprintf(stderr, "twofish %s: warning: TWOFISH_IMPL=%s is ignored: %s\n", name, os.Getenv("TWOFISH_IMPL"), strings.TrimPrefix(why, "twofish: "))
	}
}

// errReported is a usage error that the flag package has printed already.
var errReported = errors.New("reported")

// parseCrypt parses and checks an enc or dec command line. Bad values give
// a usageError of one line; bad flags are printed by the flag package with
// a line of synopsis, and give errReported.
func parseCrypt(name string, decrypt bool, args []string, stderr io.Writer) (*cryptConfig, error) {
	fs := flag.NewFlagSet("twofish "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &cryptConfig{decrypt: decrypt}
	mode := fs.String("mode", "", "cipher `mode`: ecb, cbc, cfb, ofb, ctr, xts, gcm or ocb (required)")
	keyHex := fs.String("key", "", "the key in `hex` (other users see it in ps: -key-file and -key-env do not show it)")
	keyFile := fs.String("key-file", "", "read the key, in hex or raw bytes, from `file`, which keeps it off the command line")
	keyEnv := fs.String("key-env", "", "read the key in hex from the environment `variable` named")
	ivHex := fs.String("iv", "", "the IV in `hex`, 16 bytes (cbc, cfb, ofb; ctr: the initial counter; gcm, ocb: the nonce, gcm 1 to 64 bytes, ocb 1 to 15, 12 when enc makes it)")
	ivFile := fs.String("iv-file", "", "read the IV in hex from `file` (as -iv-out writes it)")
	fs.StringVar(&cfg.in, "in", "-", "read from `file`; - is standard input")
	fs.StringVar(&cfg.out, "out", "-", "write to `file`; - is standard output")
	force := "overwrite an existing output file"
	if !decrypt {
		force += " (and -iv-out file)"
	}
	fs.BoolVar(&cfg.force, "f", false, force)
	nopad := fs.Bool("nopad", false, "ecb, cbc: no PKCS#7 padding; the input must be whole 16-byte blocks")
	fs.IntVar(&cfg.sectorSize, "sector-size", 512, "xts: sector size in `bytes`, a multiple of 16 up to 16 MiB")
	fs.Uint64Var(&cfg.sector, "sector", 0, "xts: the `number` of the first sector")
	fs.StringVar(&cfg.impl, "impl", "auto", "Twofish implementation `name` (\"twofish info\" lists them), or auto")
	if !decrypt {
		fs.StringVar(&cfg.ivOut, "iv-out", "", "also write the IV, in hex, to `file`")
	}
	full := func() {
		fmt.Fprintf(stderr, "usage: twofish %s%s\n", name, cryptSynopsis)
		fs.PrintDefaults()
		fmt.Fprint(stderr, cryptHelp)
	}
	short := func() {
		fmt.Fprintf(stderr, "usage: twofish %s%s (twofish %s -h for help)\n", name, cryptSynopsis, name)
	}
	fs.Usage = func() {} // the flag package's message comes first, then ours
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			full()
		} else {
			short()
		}
		return nil, errReported
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	cfg.mode = strings.ToLower(*mode)
	switch {
	case *mode == "":
		return nil, usagef("-mode is required: ecb, cbc, cfb, ofb, ctr, xts, gcm or ocb")
	case !slices.Contains(cryptModes, cfg.mode):
		return nil, usagef("-mode %q: unknown mode; want ecb, cbc, cfb, ofb, ctr, xts, gcm or ocb", *mode)
	}
	xts := cfg.mode == "xts"
	needsIV := cfg.mode != "ecb" && !xts
	padded := cfg.mode == "ecb" || cfg.mode == "cbc"

	// The key. Its text is never repeated in a message. A bad key file is
	// bad input, not a bad command line.
	keyErr := usagef
	switch {
	case btoi(set["key"])+btoi(set["key-file"])+btoi(set["key-env"]) > 1:
		return nil, usagef("-key, -key-file and -key-env: give one")
	case set["key-file"]:
		keyErr = func(format string, args ...any) error {
			return fmt.Errorf("-key-file %s: "+format, append([]any{*keyFile}, args...)...)
		}
		cfg.keyFile = *keyFile
		text, err := readSecretFile(*keyFile)
		if err != nil {
			return nil, fmt.Errorf("-key-file %v", pathErr(err))
		}
		// Hex if it is hex, else the raw bytes of a key: a random key
		// that is all hex digits is a chance of (22/256)^16 or less. Raw
		// bytes that are text (hex with a typo, a passphrase) or take few
		// values (zeros) are no key (notKey).
		if cfg.key, err = hex.DecodeString(string(bytes.TrimSpace(text))); err != nil {
			if !validKeySize(len(text), cfg.mode == "xts") {
				return nil, keyErr("neither a key in hex (%s) nor a raw key (%s)", hexReason(string(bytes.TrimSpace(text))), plural(len(text), "byte"))
			}
			if why := notKey(text); why != "" {
				return nil, keyErr("not a key in hex (%s), and %s, not a raw key", hexReason(string(bytes.TrimSpace(text))), why)
			}
			cfg.key = text
		}
	case set["key-env"]:
		v := os.Getenv(*keyEnv)
		if v == "" {
			return nil, fmt.Errorf("-key-env %s: the variable is not set or empty", *keyEnv)
		}
		var err error
		if cfg.key, err = hex.DecodeString(strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("-key-env %s: not a key in hex (%s)", *keyEnv, hexReason(strings.TrimSpace(v)))
		}
		keyErr = func(format string, args ...any) error {
			return fmt.Errorf("-key-env %s: "+format, append([]any{*keyEnv}, args...)...)
		}
	case set["key"]:
		var err error
		if cfg.key, err = hex.DecodeString(*keyHex); err != nil {
			return nil, usagef("-key: not hex (%s)", hexReason(*keyHex))
		}
	default:
		return nil, usagef("a key is required: -key HEX, -key-file FILE or -key-env VARIABLE")
	}
	keySizes := "16, 24 or 32"
	if xts {
		keySizes = "32, 48 or 64 (two keys)"
	}
	switch n := len(cfg.key); {
	case validKeySize(n, xts):
	default:
		return nil, keyErr("the key is %s; %s takes %s bytes", plural(n, "byte"), cfg.mode, keySizes)
	}
	if xts && !decrypt && bytes.Equal(cfg.key[:len(cfg.key)/2], cfg.key[len(cfg.key)/2:]) {
		return nil, usagef("the two halves of the xts key are equal; IEEE 1619 requires different data and tweak keys")
	}

	switch {
	case set["iv"] && set["iv-file"]:
		return nil, usagef("-iv and -iv-file: give one")
	case (set["iv"] || set["iv-file"]) && !needsIV:
		return nil, usagef("-iv: %s takes no IV", cfg.mode)
	case set["iv-file"]:
		cfg.ivFile = *ivFile
		text, err := readSecretFile(*ivFile)
		if err != nil {
			return nil, fmt.Errorf("-iv-file %v", pathErr(err))
		}
		if cfg.iv, err = hex.DecodeString(string(bytes.TrimSpace(text))); err != nil {
			return nil, fmt.Errorf("-iv-file %s: not an IV in hex (%s)", *ivFile, hexReason(string(bytes.TrimSpace(text))))
		}
		if err := checkIVSize(cfg.mode, len(cfg.iv)); err != nil {
			return nil, fmt.Errorf("-iv-file %s: %v", *ivFile, err)
		}
	case set["iv"]:
		var err error
		if cfg.iv, err = hex.DecodeString(*ivHex); err != nil {
			return nil, usagef("-iv: not hex (%s)", hexReason(*ivHex))
		}
		if err := checkIVSize(cfg.mode, len(cfg.iv)); err != nil {
			return nil, err
		}
	case needsIV && decrypt:
		return nil, usagef("-iv is required: %s decryption needs the IV of the encryption (-iv HEX or -iv-file FILE)", cfg.mode)
	case needsIV:
		cfg.iv = make([]byte, ivSize(cfg.mode))
		if _, err := crand.Read(cfg.iv); err != nil {
			return nil, fmt.Errorf("making a random IV: %v", err)
		}
		cfg.randomIV = true
	}
	if set["iv-out"] && !needsIV {
		return nil, usagef("-iv-out: %s takes no IV", cfg.mode)
	}
	if set["iv-out"] && cfg.ivOut == "" {
		return nil, usagef("-iv-out: want a file name")
	}

	if set["nopad"] && !padded {
		return nil, usagef("-nopad: only ecb and cbc pad")
	}
	cfg.pad = padded && !*nopad
	for _, f := range []string{"sector-size", "sector"} {
		if set[f] && !xts {
			return nil, usagef("-%s: only for xts", f)
		}
	}
	if cfg.sectorSize < twofish.BlockSize || cfg.sectorSize > maxSectorSize || cfg.sectorSize%twofish.BlockSize != 0 {
		return nil, usagef("-sector-size %d: want a multiple of 16 from 16 to %d", cfg.sectorSize, maxSectorSize)
	}
	if cfg.in == "" || cfg.out == "" {
		return nil, usagef("-in and -out: want a file name or -")
	}
	if cfg.impl != "auto" {
		if _, err := twofish.NewCipherImpl(make([]byte, 16), cfg.impl); err != nil {
			return nil, usagef("-impl: %v", strings.TrimPrefix(err.Error(), "twofish: "))
		}
	}
	return cfg, nil
}

// validKeySize reports whether a key of n bytes fits the mode: 16, 24 or
// 32 bytes, or twice that for xts.
func validKeySize(n int, xts bool) bool {
	if xts {
		return n == 32 || n == 48 || n == 64
	}
	return n == 16 || n == 24 || n == 32
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hexReason says why s is not hex without repeating it, which may be a
// secret: where its first character that is not a hex digit is, or that
// its digits are odd in number.
func hexReason(s string) string {
	for i, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return fmt.Sprintf("character %d is not a hex digit", i+1)
		}
	}
	return fmt.Sprintf("%d hex digits, an odd number", len(s))
}

// pathErr returns err without the operation that *os.PathError adds, which
// reads oddly in a message ("open x: no such file" becomes "x: no such
// file").
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

// cryptFiles encrypts or decrypts cfg.in to cfg.out. It writes nothing
// under an output file's name unless all went well.
func cryptFiles(cfg *cryptConfig, stdout, stderr io.Writer) error {
	cr, err := newCrypter(cfg)
	if err != nil {
		return err
	}
	in := io.Reader(os.Stdin)
	inFile := os.Stdin
	if cfg.in != "-" {
		f, err := os.Open(cfg.in)
		if err != nil {
			return fmt.Errorf("-in %v", pathErr(err))
		}
		defer f.Close()
		in, inFile = f, f
	}
	total := int64(-1)
	inInfo, err := inFile.Stat()
	switch {
	case err != nil:
		inInfo = nil
	case inInfo.IsDir():
		return fmt.Errorf("-in %s is a directory", cfg.in)
	case inInfo.Mode().IsRegular():
		total = inInfo.Size()
	}
	if cfg.ivOut != "" {
		if cfg.ivOut == "-" {
			return usagef("-iv-out: want a file name, not -")
		}
		if samePath(cfg.ivOut, cfg.out) || samePath(cfg.ivOut, cfg.in) {
			return usagef("-iv-out %s is also the input or the output", cfg.ivOut)
		}
	}
	for _, from := range [][2]string{{"-key-file", cfg.keyFile}, {"-iv-file", cfg.ivFile}} {
		if err := keepInput(inInfo, from[0], from[1]); err != nil {
			return err
		}
	}
	for _, o := range [][2]string{{"-out", cfg.out}, {"-iv-out", cfg.ivOut}} {
		for _, from := range [][2]string{{"-key-file", cfg.keyFile}, {"-iv-file", cfg.ivFile}} {
			if err := keepSecretFile(o[0], o[1], stdout, from[0], from[1]); err != nil {
				return err
			}
		}
	}

	name := "enc"
	if cfg.decrypt {
		name = "dec"
	}
	clean := newCleanup(stderr, name)
	defer clean.stop()
	out, err := clean.create(cfg.out, inInfo, cfg.force, stdout)
	if err != nil {
		return err
	}
	// Standard output, or a device (-out /dev/tty), whatever it is named.
	if !cfg.decrypt && isTerminal(out.w) {
		return usagef("will not write ciphertext to a terminal; use -out FILE or a redirection")
	}
	var ivOut *output
	if cfg.ivOut != "" {
		ivOut, err = clean.create(cfg.ivOut, inInfo, cfg.force, nil)
		if err == nil {
			_, err = fmt.Fprintf(ivOut.w, "%x\n", cfg.iv)
		}
		if err != nil {
			return fmt.Errorf("-iv-out %s", strings.TrimPrefix(err.Error(), "-out "))
		}
	}
	p := startProgress(stderr, total)
	err = cr.run(in, out.w, p.add)
	p.finish()
	if err != nil {
		return err
	}
	err = clean.do(func() error {
		// The IV that enc made is told once the output is written, and
		// before it is put in place: an output whose IV could not be told
		// (stderr closed, or full) could never be decrypted, so then there
		// is none.
		if cfg.randomIV {
			if _, err := fmt.Fprintf(stderr, "iv=%x\n", cfg.iv); err != nil {
				return fmt.Errorf("telling the IV on stderr: %v", unwrapPath(err))
			}
		}
		if ivOut == nil {
			return out.commit()
		}
		// With -f, the IV file that the new one replaces is moved aside
		// until the output is in place, and put back if it fails: it is
		// the IV of the output that then stays.
		restore, discard := func() {}, func() {}
		if ivOut.force && ivOut.tmp != nil {
			var err error
			if restore, discard, err = moveAside(ivOut.name); err != nil {
				return fmt.Errorf("-iv-out %v", pathErr(err))
			}
		}
		if err := ivOut.commit(); err != nil {
			restore()
			return fmt.Errorf("-iv-out %s", strings.TrimPrefix(err.Error(), "-out "))
		}
		// Names that differ in case alone (-out A.iv -iv-out a.iv) name one
		// file on Windows and macOS, which samePath could not see while
		// neither existed: the output would replace the IV.
		if fo, err := os.Lstat(out.name); out.name != "" && err == nil {
			if fi, err := os.Stat(ivOut.name); err == nil && os.SameFile(fo, fi) {
				os.Remove(ivOut.name)
				restore()
				return usagef("-iv-out %s is also the input or the output", ivOut.name)
			}
		}
		if err := out.commit(); err != nil {
			os.Remove(ivOut.name)
			restore()
			return err
		}
		discard()
		return nil
	})
	return err
}

// samePath reports whether the file names a and b, neither "-", name the
// same file: the same path, or the same existing file.
func samePath(a, b string) bool {
	if a == "-" || b == "-" {
		return false
	}
	if pa, err := filepath.Abs(a); err == nil {
		if pb, err := filepath.Abs(b); err == nil && pa == pb {
			return true
		}
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && sameFile(fa, fb)
}

// plural spells n things: "1 byte", "2 bytes".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
