package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// An output is where enc and dec write: a temporary file renamed into place
// by commit, or standard output or a device or pipe, written as it goes.
type output struct {
	w     io.Writer
	name  string   // the final name, "" for standard output
	tmp   *os.File // the temporary file, nil when writing in place
	force bool
	file  *os.File // a device or pipe opened in place, to close
	// later is set while the temporary file waits for start
	// (prepareOutput); w is nil until then.
	later bool
}

// createOutput prepares to write the file name ("-" for stdout). A
// regular file, or none, is written under a temporary name in the same
// directory; an existing one is refused without force, and so is in, the
// input, if it is the same file. A device or named pipe is written in
// place.
func createOutput(name string, in os.FileInfo, force bool, stdout io.Writer) (*output, error) {
	if name == "-" {
		if f, ok := stdout.(*os.File); ok && in != nil {
			if fi, err := f.Stat(); err == nil && sameFile(fi, in) {
				return nil, errors.New("standard output is the input file")
			}
		}
		return &output{w: stdout}, nil
	}
	fi, err := os.Stat(name)
	switch {
	case err == nil && in != nil && sameFile(fi, in):
		return nil, fmt.Errorf("-out %s is the input file", name)
	case err == nil && isStdout(fi, stdout):
		// /dev/stdout, /dev/fd/1 or /proc/self/fd/1 where the shell
		// opened standard output on a regular file ("> out", ">> log"):
		// written as "-out -" is. Renamed over, the name would have
		// been replaced by a file of its own, /dev/stdout itself for
		// root with -f, and without -f the shell's file refused as one
		// that exists.
		return &output{w: stdout}, nil
	case err == nil && fi.Mode().IsRegular() && fdLink(name):
		// /dev/stderr on a file, or -iv-out /dev/stdout: the output
		// would be renamed over the link, replacing /dev/stderr itself
		// when root runs it with -f.
		return nil, fmt.Errorf("-out %s stands for an open file descriptor, not a file that can be replaced; name the file itself", name)
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("-out %s is a directory", name)
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("-out %v", pathErr(err))
		}
		return &output{w: f, file: f}, nil
	case err == nil && !force:
		return nil, fmt.Errorf("-out %s exists; -f overwrites it", name)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("-out %v", pathErr(err))
	case err != nil && !force:
		if _, err := os.Lstat(name); err == nil {
			return nil, fmt.Errorf("-out %s exists (a symbolic link to nothing); -f replaces it", name)
		}
	}
	o := &output{name: name, force: force, later: true}
	if err := o.start(); err != nil {
		return nil, err
	}
	return o, nil
}

// prepareOutput is createOutput for an output that is made only once the
// work is known to succeed so far: the checks, and a trial of the
// temporary file, which is removed again and made for good by start. open
// starts its output only after the key that Argon2id derives authenticates
// the header: a header within the ceilings may still ask for more memory
// than the system gives, and a process that the kernel kills for want of
// memory (under a cgroup's limit, which canMap does not see) removes no
// temporary file.
func prepareOutput(name string, in os.FileInfo, force bool, stdout io.Writer) (*output, error) {
	o, err := createOutput(name, in, force, stdout)
	if err != nil || o.tmp == nil {
		return o, err
	}
	o.abort()
	o.w, o.later = nil, true
	return o, nil
}

// start makes the temporary file of an output that waits for it, and does
// nothing for any other.
func (o *output) start() error {
	if !o.later {
		return nil
	}
	dir, base := filepath.Dir(o.name), filepath.Base(o.name)
	tmp, err := os.CreateTemp(dir, tempPattern(base, ".tmp"))
	if err != nil {
		return fmt.Errorf("-out %s: cannot create a file in %s: %v", o.name, dir, unwrapPath(err))
	}
	o.w, o.tmp, o.later = namedWriter{tmp, o.name}, tmp, false
	return nil
}

// isStdout reports whether fi is the file that stdout, if it is an
// *os.File, writes to.
func isStdout(fi os.FileInfo, stdout io.Writer) bool {
	f, ok := stdout.(*os.File)
	if !ok {
		return false
	}
	so, err := f.Stat()
	return err == nil && sameFile(fi, so)
}

// fdLink reports whether name is one of the names of an open file
// descriptor, /dev/fd/N or /proc/.../fd/N, or a symbolic link to one, as
// Linux's /dev/stdout and /dev/stderr are.
func fdLink(name string) bool {
	p, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	for range 8 {
		if strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/") && strings.Contains(p, "/fd/") {
			return true
		}
		target, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return false
}

// tempPattern is os.CreateTemp's pattern for a file that stands in for
// the file base in its directory: hidden, named after base, and ending in
// suffix. Of a long base it takes the first 61 to 64 bytes, a whole
// character at the end where base is UTF-8 (a name need not be: any bytes
// but '/' and NUL), so that the name fits in the 255 bytes a name may
// have, as base does.
func tempPattern(base, suffix string) string {
	if len(base) > 64 {
		n := 64
		for n > 64-utf8.UTFMax && !utf8.RuneStart(base[n]) {
			n--
		}
		base = base[:n]
	}
	return "." + base + ".*" + suffix
}

// keepSecretFile returns a usage error if the output out ("-" for
// standard output), given by the flag outFlag, would write to the file
// from that the flag fromFlag names, the file of a key, a passphrase or an
// IV: not even -f replaces it, which would lose the secret, and with it
// what it encrypted. Standard output is that file where the shell opened
// it to append ("twofish seal -key-file k >>k").
func keepSecretFile(outFlag, out string, stdout io.Writer, fromFlag, from string) error {
	switch {
	case from == "" || out == "":
	case out != "-":
		if samePath(out, from) {
			return usagef("%s %s is also the %s", outFlag, out, fromFlag)
		}
	default:
		f, ok := stdout.(*os.File)
		if !ok {
			return nil
		}
		fo, errO := f.Stat()
		ff, errF := os.Stat(from)
		if errO == nil && errF == nil && fo.Mode().IsRegular() && sameFile(fo, ff) {
			return usagef("standard output is the %s", fromFlag)
		}
	}
	return nil
}

// keepInput returns a usage error if the file that the flag fromFlag
// names, the file of a key, a passphrase or an IV, is the input, whose
// FileInfo is in (nil if unknown). Read from standard input, as
// /dev/stdin, the secret would take with it the message behind it (up to
// 64 KiB, the whole of a short one), and seal would seal what was left and
// succeed; from the input file, the secret is part of the message.
func keepInput(in os.FileInfo, fromFlag, from string) error {
	if in == nil || from == "" {
		return nil
	}
	if fi, err := os.Stat(from); err == nil && sameFile(fi, in) {
		return usagef("%s %s is also the input", fromFlag, from)
	}
	return nil
}

// A namedWriter writes to a temporary file and names the output, not the
// temporary file, in its errors ("out.bin: no space left on device").
type namedWriter struct {
	f    *os.File
	name string
}

func (w namedWriter) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if err != nil {
		err = fmt.Errorf("%s: %v", w.name, unwrapPath(err))
	}
	return n, err
}

// unwrapPath returns the cause of a *os.PathError, which names a
// temporary file the user does not know of.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit makes the output final: it flushes the temporary file to disk and
// gives it its name (an output that was never started gets an empty one).
// Without force it does not replace a file that has appeared there
// meanwhile.
func (o *output) commit() error {
	if err := o.start(); err != nil {
		return err
	}
	if o.tmp == nil {
		if f := o.file; f != nil {
			o.file = nil
			return f.Close()
		}
		return nil
	}
	tmp := o.tmp.Name()
	// A failed sync or close (a full disk or quota, an I/O error) removes
	// the temporary file, as every later failure does: no caller aborts
	// after a commit, and the file would stay, whole or not.
	if err := o.tmp.Sync(); err != nil {
		o.abort()
		return fmt.Errorf("writing %s: %v", o.name, unwrapPath(err))
	}
	if err := o.tmp.Close(); err != nil {
		o.abort()
		return fmt.Errorf("writing %s: %v", o.name, unwrapPath(err))
	}
	o.tmp = nil
	if !o.force {
		// A hard link fails if the name exists, where a rename would
		// replace it.
		err := os.Link(tmp, o.name)
		if err == nil {
			os.Remove(tmp)
			return nil
		}
		if _, serr := os.Lstat(o.name); serr == nil {
			os.Remove(tmp)
			return fmt.Errorf("-out %s exists (it appeared while working); -f overwrites it", o.name)
		}
		// No hard links on this file system: rename.
	}
	if err := os.Rename(tmp, o.name); err != nil {
		os.Remove(tmp)
		// A rename's *os.LinkError names the temporary file, which the
		// user does not know of: name the output instead.
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return fmt.Errorf("-out %s: %v", o.name, err)
	}
	return nil
}

// abort removes the temporary file, if any.
func (o *output) abort() {
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
		o.tmp = nil
	}
	if o.file != nil {
		o.file.Close()
		o.file = nil
	}
}

// A cleanup removes the temporary files of the outputs if one of
// cleanupSignals arrives before they are committed, turns the terminal's
// echo back on if a passphrase prompt had it off, and exits with the
// signal's status there. A kill that cannot be caught leaves a temporary file
// behind, but never a partial file under the output's name.
type cleanup struct {
	mu      sync.Mutex
	outputs []*output
	sigs    chan os.Signal
	stderr  io.Writer
}

// newCleanup starts watching for signals.
func newCleanup(stderr io.Writer, name string) *cleanup {
	c := &cleanup{sigs: make(chan os.Signal, 1), stderr: stderr}
	if len(cleanupSignals) > 0 { // Notify with no signals takes them all
		signal.Notify(c.sigs, slices.Collect(maps.Keys(cleanupSignals))...)
	}
	go func() {
		sig, ok := <-c.sigs
		if !ok {
			return
		}
		c.mu.Lock() // held until exit: no commit after this
		for _, o := range c.outputs {
			o.abort()
		}
		restoreTerminal()
		fmt.Fprintf(c.stderr, "twofish %s: %v; no output written\n", name, sig)
		os.Exit(cleanupSignals[sig])
	}()
	return c
}

// create prepares the output name as createOutput does and puts it under
// the cleanup's watch.
func (c *cleanup) create(name string, in os.FileInfo, force bool, stdout io.Writer) (*output, error) {
	return c.watch(createOutput(name, in, force, stdout))
}

// prepare is create for prepareOutput; c.do(o.start) makes its file.
func (c *cleanup) prepare(name string, in os.FileInfo, force bool, stdout io.Writer) (*output, error) {
	return c.watch(prepareOutput(name, in, force, stdout))
}

// watch puts o under the cleanup's watch, unless err.
func (c *cleanup) watch(o *output, err error) (*output, error) {
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.outputs = append(c.outputs, o)
	c.mu.Unlock()
	return o, nil
}

// do runs f, a commit or an abort, without a signal in between.
func (c *cleanup) do(f func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return f()
}

// stop stops watching for signals and removes the temporary files of the
// outputs not committed: after a failure, and after a panic, which main
// turns into an error message.
func (c *cleanup) stop() {
	signal.Stop(c.sigs)
	close(c.sigs)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range c.outputs {
		o.abort()
	}
}

// maxSecretFile is the most that readSecretFile reads of a key, passphrase
// or IV file: far more than any of them takes (a key in hex is 128
// characters at most).
const maxSecretFile = 64 << 10

// readSecretFile reads the file name, which holds a key, a passphrase or an
// IV, and refuses one longer than maxSecretFile. os.ReadFile would read a
// file of any size into memory before its length is checked, and never
// stop reading a device such as /dev/zero: a large file given by mistake
// (the input, say) costs its size in memory, where this costs 64 KiB.
func readSecretFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("%s: over %d KiB, too long for a key, passphrase or IV", name, maxSecretFile>>10)
	}
	return b, nil
}

// moveAside renames the file name, if there is one, to a new name in its
// directory, so that a commit that replaces it can be undone: restore puts
// it back, discard removes it. Both do nothing if there was no file.
func moveAside(name string) (restore, discard func(), err error) {
	none := func() {}
	if _, err := os.Lstat(name); err != nil {
		return none, none, nil
	}
	f, err := os.CreateTemp(filepath.Dir(name), tempPattern(filepath.Base(name), ".old"))
	if err != nil {
		return nil, nil, err
	}
	f.Close()
	aside := f.Name()
	if err := os.Rename(name, aside); err != nil {
		os.Remove(aside)
		return nil, nil, err
	}
	return func() { os.Rename(aside, name) }, func() { os.Remove(aside) }, nil
}

// notKey says why the bytes of a key file, read as a raw key, are not a
// key, "" if they may be one: fewer distinct byte values than half their
// length (zeros, a repeated pattern, UTF-16 text), or text (a passphrase
// and its line feed, hex with a typo): printable ASCII, tabs and line ends,
// after a UTF-8 byte order mark or not, or from 32 bytes on any printable
// UTF-8. Random bytes take so few values by a chance under 10^-11 for 16
// bytes and 10^-15 for 32, and are such text by one under 10^-6 for 16 and
// 10^-10 for 32 (the sum over the encodings of printable runes).
func notKey(b []byte) string {
	var seen [256]bool
	distinct := 0
	for _, c := range b {
		if !seen[c] {
			seen[c], distinct = true, distinct+1
		}
	}
	if distinct < len(b)/2 {
		return fmt.Sprintf("%d bytes of only %s", len(b), plural(distinct, "value"))
	}
	text := bytes.TrimPrefix(b, []byte("\uFEFF"))
	if !utf8.Valid(text) {
		return ""
	}
	for _, r := range string(text) {
		printable := r >= ' ' && r <= '~' || r == '\t' || r == '\n' || r == '\r' || len(b) >= 32 && unicode.IsPrint(r)
		if !printable {
			return ""
		}
	}
	return fmt.Sprintf("%d bytes of text", len(b))
}
