package main

import (
	"bytes"
	"crypto/hmac"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// sealSynopsis is the usage line of seal and open, after the command name.
const sealSynopsis = " [-in FILE|-] [-out FILE|-] [-key-file FILE | -passphrase-file FILE | -passphrase-env VAR] [flags]"

// sealHelp explains seal and open after their flags.
const sealHelp = `
seal encrypts and authenticates a file of any size with a passphrase or a
key; open checks and decrypts it. The sealed file holds everything open needs
but the secret: the key derivation's parameters and salt, the mode and the
chunk size (FORMAT.md in the source describes it for other implementations).
The message goes in chunks (64 KiB by default), each sealed with Twofish-256
in GCM (or OCB, -aead ocb) under a key made for this file, in constant memory
and on all cores; the header's MAC binds the file to that one key. open
detects any change: an edited byte or header field, chunks cut off, swapped
or repeated.

The secret: a passphrase, read from the terminal without echo (twice when
sealing), from the first line of -passphrase-file (which seal refuses if it
starts with a byte-order mark or holds a NUL byte, as UTF-16 text does: no
one types those; open takes the line as it is), or from the environment
variable that -passphrase-env names; it goes through Argon2id (-argon2-time,
-argon2-memory, -argon2-threads; the defaults take 0.3-0.4 s on a 2-core AMD
EPYC). Or a key file (-key-file): 32 random bytes, or 64 hex digits. A
sealed file is untrusted until it authenticates, so open refuses one whose
Argon2id would cost more than 2 GiB of memory (1 GiB in a 32-bit build), 4
GiB of passes times memory or 16 lanes before it derives a key;
-argon2-max-memory, -argon2-max-work and -argon2-max-threads raise the
ceiling for files sealed with stronger settings (and let seal write them).

An output file is written under a temporary name and renamed into place only
when the whole message is done (for open: when every chunk authenticated), so
a failure or an interrupt leaves none; it is readable by its owner only
(mode 0600; on Windows it takes its folder's permissions), and never
replaces the key or passphrase file, even with -f. Standard output, a
pipe or a device gets each chunk as it is done, and open writes nothing past
a chunk that fails (check open's exit status in a pipeline). seal does not
write to a terminal. Exit status: 0 done, 1 failed, 2 bad command line, 130
interrupted.
`

// The defaults of Argon2id: eight passes over 48 MiB with four lanes,
// 0.25-0.34 s on the 2-core Zen 5 machine ("twofish seal" of a small
// file, medians of 5 in several sessions), and under 64 MiB of memory for
// the whole command, which the same memory for fewer passes (RFC 9106's
// 64 MiB, three passes) would exceed.
const (
	defaultArgon2Time    = 8
	defaultArgon2MemMiB  = 48
	defaultArgon2Threads = 4
)

// sealConfig is what a seal or open command line asks for.
type sealConfig struct {
	open    bool
	in, out string
	force   bool
	// Where the secret comes from: one of them, or the terminal.
	keyFile, passFile, passEnv string
	aead                       byte // seal: aeadGCM or aeadOCB
	chunkLog                   byte // seal
	argonTime, argonMem        uint32
	argonThreads               byte
	limits                     argon2Limits // what open pays, and seal writes, at most
}

// runSeal implements "twofish seal".
func runSeal(args []string, stdout, stderr io.Writer) int {
	return runSealOpen(false, args, stdout, stderr)
}

// runOpen implements "twofish open".
func runOpen(args []string, stdout, stderr io.Writer) int {
	return runSealOpen(true, args, stdout, stderr)
}

// runSealOpen implements seal (open false) and open: every error is one
// line on stderr.
func runSealOpen(open bool, args []string, stdout, stderr io.Writer) int {
	name := "seal"
	if open {
		name = "open"
	}
	cfg, err := parseSeal(name, open, args, stderr)
	if err == nil {
		warnImpl(stderr, name, "auto")
		err = sealFiles(cfg, stdout, stderr)
	}
	return report(stderr, name, err)
}

// parseSeal parses and checks a seal or open command line.
func parseSeal(name string, open bool, args []string, stderr io.Writer) (*sealConfig, error) {
	fs := flag.NewFlagSet("twofish "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &sealConfig{open: open}
	fs.StringVar(&cfg.in, "in", "-", "read from `file`; - is standard input")
	fs.StringVar(&cfg.out, "out", "-", "write to `file`; - is standard output")
	fs.BoolVar(&cfg.force, "f", false, "overwrite an existing output file")
	fs.StringVar(&cfg.keyFile, "key-file", "", "read the key, 32 bytes raw or in hex, from `file`")
	fs.StringVar(&cfg.passFile, "passphrase-file", "", "read the passphrase from the first line of `file`")
	fs.StringVar(&cfg.passEnv, "passphrase-env", "", "read the passphrase from the environment `variable` named")
	var aead string
	// The numeric flags are 64-bit on every platform, so that a value past
	// a bound gets the same message from the checks below in a 32-bit
	// build, rather than the flag package's "value out of range".
	var chunk, argonMiB, argonTime, argonThreads uint64
	var maxMiB, maxWorkMiB, maxThreads uint64
	fs.Uint64Var(&maxMiB, "argon2-max-memory", min(defaultArgon2MaxMemMiB, maxArgon2MemoryHere>>10), "open no file whose Argon2id asks for more memory, in `MiB`, and seal none")
	fs.Uint64Var(&maxWorkMiB, "argon2-max-work", defaultArgon2MaxWorkMiB, "open no file whose Argon2id asks for more passes times memory, in `MiB`, and seal none")
	fs.Uint64Var(&maxThreads, "argon2-max-threads", defaultArgon2MaxThreads, "open no file whose Argon2id asks for more `lanes`, and seal none")
	if !open {
		fs.StringVar(&aead, "aead", "gcm", "authenticated `mode`: gcm or ocb")
		fs.Uint64Var(&chunk, "chunk-size", 1<<defaultChunkLog, "plaintext `bytes` per chunk, a power of two from 1024 to 16777216")
		fs.Uint64Var(&argonTime, "argon2-time", defaultArgon2Time, "Argon2id `passes` over its memory")
		fs.Uint64Var(&argonMiB, "argon2-memory", defaultArgon2MemMiB, "Argon2id memory in `MiB`")
		fs.Uint64Var(&argonThreads, "argon2-threads", defaultArgon2Threads, "Argon2id `lanes`")
	}
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(stderr, "usage: twofish %s%s\n", name, sealSynopsis)
			fs.PrintDefaults()
			fmt.Fprint(stderr, sealHelp)
		} else {
			fmt.Fprintf(stderr, "usage: twofish %s%s (twofish %s -h for help)\n", name, sealSynopsis, name)
		}
		return nil, errReported
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	// A flag given an empty value ("-key-file $KEY" with KEY unset) names
	// nothing, and would fall back to the terminal's prompt: a passphrase
	// where a key file was meant.
	var empty error
	fs.Visit(func(f *flag.Flag) {
		switch {
		case empty != nil || f.Value.String() != "":
		case f.Name == "key-file" || f.Name == "passphrase-file":
			empty = usagef("-%s: want a file name", f.Name)
		case f.Name == "passphrase-env":
			empty = usagef("-%s: want a variable name", f.Name)
		}
	})
	if empty != nil {
		return nil, empty
	}
	sources := 0
	for _, s := range []string{cfg.keyFile, cfg.passFile, cfg.passEnv} {
		if s != "" {
			sources++
		}
	}
	if sources > 1 {
		return nil, usagef("-key-file, -passphrase-file and -passphrase-env: give one")
	}
	if cfg.in == "" || cfg.out == "" {
		return nil, usagef("-in and -out: want a file name or -")
	}
	if maxMiB > maxArgon2MemoryHere>>10 {
		return nil, usagef("-argon2-max-memory %d: want at most %d MiB, %s", maxMiB, maxArgon2MemoryHere>>10, argon2MemoryLimit())
	}
	if maxWorkMiB > 1<<42 {
		return nil, usagef("-argon2-max-work %d: want at most %d MiB", maxWorkMiB, uint64(1<<42))
	}
	cfg.limits = argon2Limits{memory: maxMiB << 10, work: maxWorkMiB << 10, lanes: maxThreads}
	if open {
		return cfg, nil
	}
	switch strings.ToLower(aead) {
	case "gcm":
		cfg.aead = aeadGCM
	case "ocb":
		cfg.aead = aeadOCB
	default:
		return nil, usagef("-aead %q: want gcm or ocb", aead)
	}
	cfg.chunkLog = byte(minChunkLog)
	for 1<<cfg.chunkLog < chunk && cfg.chunkLog < maxChunkLog {
		cfg.chunkLog++
	}
	if chunk != 1<<cfg.chunkLog {
		return nil, usagef("-chunk-size %d: want a power of two from %d to %d", chunk, 1<<minChunkLog, 1<<maxChunkLog)
	}
	if argonTime < 1 || argonTime > 1<<16 {
		return nil, usagef("-argon2-time %d: want 1 to 65536", argonTime)
	}
	if argonThreads < 1 || argonThreads > 255 {
		return nil, usagef("-argon2-threads %d: want 1 to 255", argonThreads)
	}
	// The bound is checked in MiB before multiplying: argonMiB*1024 wraps
	// from 2^54 MiB, and 2^54+1 would pass as 1 MiB.
	if argonMiB < 1 || argonMiB > maxArgon2MemoryHere/1024 || argonMiB*1024 < 8*argonThreads {
		return nil, usagef("-argon2-memory %d: want 1 to %d MiB (%s), at least 8 KiB per lane", argonMiB, maxArgon2MemoryHere/1024, argon2MemoryLimit())
	}
	cfg.argonTime, cfg.argonMem, cfg.argonThreads = uint32(argonTime), uint32(argonMiB*1024), byte(argonThreads)
	if cfg.keyFile == "" {
		if err := cfg.limits.check(cfg.argonTime, cfg.argonMem, cfg.argonThreads); err != nil {
			return nil, usagef("%v; open would refuse the file", err)
		}
	}
	return cfg, nil
}

// untypeable says what in a passphrase file's first line no one types: a
// byte-order mark or a NUL byte, as a file saved as UTF-16 (Windows
// PowerShell 5's >) or UTF-8 with a mark has, or "" if nothing.
func untypeable(line []byte) string {
	switch {
	case bytes.HasPrefix(line, []byte("\xef\xbb\xbf")):
		return "starts with a UTF-8 byte-order mark"
	case bytes.HasPrefix(line, []byte("\xff\xfe")), bytes.HasPrefix(line, []byte("\xfe\xff")):
		return "starts with a UTF-16 byte-order mark"
	case bytes.IndexByte(line, 0) >= 0:
		return "has a NUL byte"
	}
	return ""
}

// secret returns the key (from -key-file) or the passphrase, and whether it
// is a key. Seal asks for a passphrase on the terminal twice.
func (cfg *sealConfig) secret(stderr io.Writer) (secret []byte, isKey bool, err error) {
	switch {
	case cfg.keyFile != "":
		b, err := readSecretFile(cfg.keyFile)
		if err != nil {
			return nil, false, fmt.Errorf("-key-file %v", pathErr(err))
		}
		if len(b) == 32 {
			if why := notKey(b); why != "" {
				return nil, false, fmt.Errorf("-key-file %s: %s, not a key; want 32 random bytes or 64 hex digits (a passphrase goes in -passphrase-file)", cfg.keyFile, why)
			}
			return b, true, nil
		}
		text := bytes.TrimSpace(b)
		key, herr := hex.DecodeString(string(text))
		switch {
		case herr != nil && len(text) == 64:
			// hexReason, not herr: hex's error quotes the offending
			// character, a character of what may be the secret.
			return nil, false, fmt.Errorf("-key-file %s: 64 characters but not hex (%s)", cfg.keyFile, hexReason(string(text)))
		case herr != nil || len(key) != 32:
			return nil, false, fmt.Errorf("-key-file %s: %s; want a 32-byte key, raw or as 64 hex digits", cfg.keyFile, plural(len(b), "byte"))
		}
		return key, true, nil
	case cfg.passFile != "":
		b, err := readSecretFile(cfg.passFile)
		if err != nil {
			return nil, false, fmt.Errorf("-passphrase-file %v", pathErr(err))
		}
		line, _, _ := bytes.Cut(b, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return nil, false, fmt.Errorf("-passphrase-file %s: the first line is empty", cfg.passFile)
		}
		if why := untypeable(line); why != "" && !cfg.open {
			return nil, false, fmt.Errorf("-passphrase-file %s: the first line %s, which no passphrase typed at the prompt has; save the file as UTF-8 text without it", cfg.passFile, why)
		}
		return line, false, nil
	case cfg.passEnv != "":
		v, ok := os.LookupEnv(cfg.passEnv)
		if !ok || v == "" {
			return nil, false, fmt.Errorf("-passphrase-env %s: the variable is not set or empty", cfg.passEnv)
		}
		return []byte(v), false, nil
	}
	p, err := readPassphrase(!cfg.open)
	return p, false, err
}

// sealFiles seals or opens cfg.in to cfg.out.
func sealFiles(cfg *sealConfig, stdout, stderr io.Writer) error {
	name := "seal"
	if cfg.open {
		name = "open"
	}
	in, inInfo, total, closeIn, err := openInput(cfg.in)
	if err != nil {
		return err
	}
	defer closeIn()
	for flag, file := range map[string]string{"-key-file": cfg.keyFile, "-passphrase-file": cfg.passFile} {
		if err := keepSecretFile("-out", cfg.out, stdout, flag, file); err != nil {
			return err
		}
		if err := keepInput(inInfo, flag, file); err != nil {
			return err
		}
	}

	// The header comes first: open reads it before asking for the secret,
	// so that a file that is not sealed fails at once.
	var h *sealHeader
	if cfg.open {
		b := make([]byte, sealHeaderSize)
		n, err := io.ReadFull(in, b)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return fmt.Errorf("reading the input: %v", unwrapPath(err))
		}
		if h, err = parseSealHeader(b[:n]); err != nil {
			return err
		}
		// What can be refused without the secret is refused before it is
		// read: else a passphrase is typed, and Argon2id paid, for
		// nothing. The kind of secret comes first: with a key file the
		// Argon2id fields cost nothing.
		switch keyFile := cfg.keyFile != ""; {
		case keyFile && h.kdf != kdfKey:
			return errors.New("the file was sealed with a passphrase, not a key file")
		case !keyFile && h.kdf != kdfArgon2id:
			return errors.New("the file was sealed with a key file (-key-file), not a passphrase")
		case h.kdf == kdfArgon2id:
			if err := cfg.limits.check(h.time, h.memory, h.threads); err != nil {
				return fmt.Errorf("the file's header: %v", err)
			}
		}
		// The shortest body, an empty last chunk, is a tag: a file that
		// ends before one is refused here too.
		tag := make([]byte, sealTagSize)
		n, err = io.ReadFull(in, tag)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return fmt.Errorf("reading the input: %v", unwrapPath(err))
		}
		if n < sealTagSize {
			return errors.New("the file was cut short after its header")
		}
		in = io.MultiReader(bytes.NewReader(tag), in)
	} else {
		h = &sealHeader{aead: cfg.aead, chunkLog: cfg.chunkLog}
		if _, err := crand.Read(h.salt[:]); err != nil {
			return err
		}
		if _, err := crand.Read(h.prefix[:]); err != nil {
			return err
		}
	}
	// Argon2id's memory is one allocation, which the runtime does not
	// fail gracefully: memory the process cannot have is refused here.
	switch {
	case cfg.open && h.kdf == kdfArgon2id && !canMap(argon2Footprint(h.memory)):
		return fmt.Errorf("the file's header: Argon2id asks for %s of memory, more than this process can have (see ulimit -v and -d)", formatKiB(uint64(h.memory)))
	case !cfg.open && cfg.keyFile == "" && !canMap(argon2Footprint(cfg.argonMem)):
		return fmt.Errorf("-argon2-memory %d: more memory than this process can have (see ulimit -v and -d)", cfg.argonMem>>10)
	}
	// The output, too, is refused before the secret is read; open makes
	// its file only once the header authenticates (prepareOutput).
	clean := newCleanup(stderr, name)
	defer clean.stop()
	create := clean.create
	if cfg.open {
		create = clean.prepare
	}
	out, err := create(cfg.out, inInfo, cfg.force, stdout)
	if err != nil {
		return err
	}
	if !cfg.open && isTerminal(out.w) {
		return usagef("will not write a sealed file to a terminal; use -out FILE or a redirection")
	}
	if err := sealStream(cfg, h, in, out, clean, total, stderr); err != nil {
		return err
	}
	return clean.do(out.commit)
}

// sealStream derives the file key from the secret that cfg names and seals
// or opens in, after the header, to out, which it starts when the key is
// known to be right.
func sealStream(cfg *sealConfig, h *sealHeader, in io.Reader, out *output, clean *cleanup, total int64, stderr io.Writer) error {
	secret, isKey, err := cfg.secret(stderr)
	if err != nil {
		return err
	}
	switch {
	case cfg.open:
	case isKey:
		h.kdf = kdfKey
	default:
		h.kdf, h.time, h.memory, h.threads = kdfArgon2id, cfg.argonTime, cfg.argonMem, cfg.argonThreads
	}
	a, mac, err := h.keys(secret)
	clear(secret)
	if err != nil {
		return err
	}
	if !cfg.open {
		h.mac = mac
	} else if !hmac.Equal(mac[:], h.mac[:]) {
		return errWrongKey
	}
	if h.kdf == kdfArgon2id {
		// Argon2id's memory is garbage now; give it back before the stream.
		debug.FreeOSMemory()
	}
	if err := clean.do(out.start); err != nil {
		return err
	}
	w := out.w
	p := startProgress(stderr, total)
	if cfg.open {
		err = openChunks(a, h, in, w, p.add)
	} else if _, err = w.Write(h.marshal()); err != nil {
		err = fmt.Errorf("writing the output: %v", unwrapPath(err))
	} else {
		err = sealChunks(a, h, in, w, p.add)
	}
	p.finish()
	return err
}

// openInput opens the file name ("-" for standard input) and returns it,
// its FileInfo (nil if unknown), its size (-1 if not a regular file) and
// how to close it.
func openInput(name string) (io.Reader, os.FileInfo, int64, func(), error) {
	f := os.Stdin
	closeIt := func() {}
	if name != "-" {
		var err error
		if f, err = os.Open(name); err != nil {
			return nil, nil, 0, nil, fmt.Errorf("-in %v", pathErr(err))
		}
		closeIt = func() { f.Close() }
	}
	total := int64(-1)
	fi, err := f.Stat()
	switch {
	case err != nil:
		fi = nil
	case fi.IsDir():
		closeIt()
		return nil, nil, 0, nil, fmt.Errorf("-in %s is a directory", name)
	case fi.Mode().IsRegular():
		total = fi.Size()
	}
	return f, fi, total, closeIt, nil
}
