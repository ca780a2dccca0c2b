package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/twofish-go/twofish/internal/testenv"
)

// TestOverwrite checks that an existing output is kept without -f and
// replaced with it, and likewise for -iv-out.
func TestOverwrite(t *testing.T) {
	dir := t.TempDir()
	in, out, ivOut := filepath.Join(dir, "in"), filepath.Join(dir, "out"), filepath.Join(dir, "iv")
	pt := randomBytes(rng(t), 5000)
	writeFile(t, in, pt)
	writeFile(t, out, []byte("old"))
	writeFile(t, ivOut, []byte("old iv"))
	args := []string{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", ivOut}
	r := exe(t, nil, nil, args...)
	checkOneLineError(t, r, 1, "-out "+out+" exists; -f overwrites it", args)
	if string(readFile(t, out)) != "old" || string(readFile(t, ivOut)) != "old iv" {
		t.Fatal("refused to overwrite, but changed the files")
	}
	os.Remove(out)
	r = exe(t, nil, nil, args...)
	checkOneLineError(t, r, 1, "-iv-out "+ivOut+" exists; -f overwrites it", args)
	if _, err := os.Stat(out); err == nil {
		t.Fatal("refused to overwrite -iv-out, but wrote -out")
	}
	writeFile(t, out, []byte("old"))
	r = exe(t, nil, nil, append(args, "-f")...)
	if r.code != 0 {
		t.Fatalf("with -f: exit status %d: %s", r.code, r.stderr)
	}
	// The IV is printed and written, and decrypts.
	iv := strings.TrimSpace(string(readFile(t, ivOut)))
	if string(r.stderr) != "iv="+iv+"\n" || len(iv) != 32 {
		t.Fatalf("stderr %q, -iv-out file %q", r.stderr, iv)
	}
	back := mustRun(t, nil, nil, "dec", "-mode", "ctr", "-key", key128, "-iv", iv, "-in", out)
	if !bytes.Equal(back, pt) {
		t.Fatal("dec with the IV of -iv-out did not restore the input")
	}
	if names := dirNames(t, dir); len(names) != 3 {
		t.Errorf("files in the directory: %q", names)
	}

	// A symbolic link to nothing is an existing output too.
	dangling := filepath.Join(dir, "dangling")
	if symlink(t, filepath.Join(dir, "nowhere"), dangling) {
		args := []string{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in, "-out", dangling}
		checkOneLineError(t, exe(t, nil, nil, args...), 1, "exists (a symbolic link to nothing); -f replaces it", args)
		mustRun(t, nil, nil, append(args, "-f")...)
		if fi, err := os.Lstat(dangling); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("-f did not replace the link with the output: %v", err)
		}
	}
}

// TestKeyFile checks -key-file: the key in hex, with white space around.
func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	writeFile(t, keyFile, []byte("  "+key256+"\r\n"))
	pt := randomBytes(rng(t), 999)
	a := mustRun(t, pt, nil, "enc", "-mode", "ctr", "-key-file", keyFile, "-iv", iv128)
	b := mustRun(t, pt, nil, "enc", "-mode", "ctr", "-key", key256, "-iv", iv128)
	if !bytes.Equal(a, b) {
		t.Error("-key-file and -key with the same key differ")
	}
}

// TestSameFile checks that input and output are refused when they are the
// same file by name, by a hard or symbolic link, and as standard input and
// output, with or without -f, and the input is left alone.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	pt := randomBytes(rng(t), 3000)
	writeFile(t, in, pt)
	names := []string{in, filepath.Join(dir, ".", "in")}
	if err := os.Link(in, filepath.Join(dir, "hard")); err == nil {
		names = append(names, filepath.Join(dir, "hard"))
	}
	if symlink(t, in, filepath.Join(dir, "soft")) {
		names = append(names, filepath.Join(dir, "soft"))
	}
	for _, out := range names {
		for _, f := range []string{"-f=false", "-f"} {
			args := []string{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in, "-out", out, f}
			checkOneLineError(t, exe(t, nil, nil, args...), 1, "is the input file", args)
		}
	}
	// Standard input and output both the file, as in "twofish enc <f >>f".
	stdin, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := os.OpenFile(in, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd := execCommand(t, "enc", "-mode", "ctr", "-key", key128, "-iv", iv128)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, &stderr
	if err := testenv.Run(t, cmd); err == nil || !strings.Contains(stderr.String(), "standard output is the input file") {
		t.Errorf("enc <in >>in: %v, stderr %q", err, stderr.String())
	}
	if !bytes.Equal(readFile(t, in), pt) {
		t.Error("the input was changed")
	}
}

// TestFailureLeavesNothing checks that an error found at the end of a
// long input (bad padding after several chunks) leaves no output and no
// temporary file, and that an unwritable output is reported.
func TestFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	ct := randomBytes(rng(t), 3*chunkSize+32) // decrypts to bad padding
	writeFile(t, in, ct)
	args := []string{"dec", "-mode", "ecb", "-key", key128, "-in", in, "-out", out}
	checkOneLineError(t, exe(t, nil, []string{"GOMAXPROCS=3"}, args...), 1, "bad PKCS#7 padding", args)
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files in the directory after a failure: %q", names)
	}

	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/dev/full"); err == nil {
			args := []string{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in, "-out", "/dev/full"}
			checkOneLineError(t, exe(t, nil, nil, args...), 1, "writing the output: no space left on device", args)
		}
	}
}

// TestReadOnlyDirectory checks that an output in a directory that cannot
// be written is one line of error and no file. Directory permissions do
// not stop root, as whom CI runs: there the directory is Linux's
// /sys/kernel, which sysfs keeps root from creating files in.
func TestReadOnlyDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("directory permissions do not stop writes on Windows")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, in, randomBytes(rng(t), 100))
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	if f, err := os.Create(filepath.Join(ro, "probe")); err == nil {
		f.Close()
		ro = "/sys/kernel"
		if f, err := os.Create(filepath.Join(ro, "probe")); !errors.Is(err, fs.ErrPermission) {
			if err == nil {
				f.Close()
			}
			t.Skipf("running as a user (root?) whom directory permissions do not stop, and %s takes a file (%v)", ro, err)
		}
	}
	before := dirNames(t, ro)
	args := []string{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in, "-out", filepath.Join(ro, "out")}
	checkOneLineError(t, exe(t, nil, nil, args...), 1, "cannot create a file in "+ro+": permission denied", args)
	if names := dirNames(t, ro); !slices.Equal(names, before) {
		t.Errorf("files in the read-only directory: %q, before %q", names, before)
	}
}

// TestStdio checks that "-" means standard input and output, and that the
// random IV goes to stderr only.
func TestStdio(t *testing.T) {
	pt := randomBytes(rng(t), 100000)
	r := exe(t, pt, nil, "enc", "-mode", "cfb", "-key", key128, "-in", "-", "-out", "-")
	if r.code != 0 || len(r.stdout) != len(pt) {
		t.Fatalf("enc: exit status %d, %d bytes out, stderr %s", r.code, len(r.stdout), r.stderr)
	}
	iv := strings.TrimPrefix(strings.TrimSpace(string(r.stderr)), "iv=")
	if _, err := hex.DecodeString(iv); err != nil || len(iv) != 32 {
		t.Fatalf("stderr %q", r.stderr)
	}
	back := mustRun(t, r.stdout, nil, "dec", "-mode", "cfb", "-key", key128, "-iv", iv)
	if !bytes.Equal(back, pt) {
		t.Fatal("round trip through pipes failed")
	}
}

// writtenOutput returns the output name, prepared by createOutput with
// force, with content written to it and not yet committed.
func writtenOutput(t *testing.T, name string, force bool, content string) *output {
	t.Helper()
	out, err := createOutput(name, nil, force, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCommitFailureLeavesNothing makes the sync of commit fail, as a full
// disk or an I/O error can at that point, by closing the temporary file
// first: commit must fail and leave neither the output nor the temporary
// file.
func TestCommitFailureLeavesNothing(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		name := filepath.Join(dir, "out")
		out := writtenOutput(t, name, force, "some output")
		out.tmp.Close()
		if err := out.commit(); err == nil {
			t.Errorf("-f %v: commit of a file that cannot be synced succeeded", force)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("-f %v: a failed commit left %q", force, names)
		}
	}
}

// TestCommitKeepsFileThatAppeared checks that without -f a commit does
// not replace a file that appeared under the output's name while the
// command worked, after createOutput found none, and leaves no temporary
// file; with -f it replaces it.
func TestCommitKeepsFileThatAppeared(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		name := filepath.Join(dir, "out")
		out := writtenOutput(t, name, force, "output")
		writeFile(t, name, []byte("appeared"))
		err := out.commit()
		want := "appeared"
		if force {
			want = "output"
			if err != nil {
				t.Errorf("-f: commit over a file that appeared: %v", err)
			}
		} else if err == nil || !strings.Contains(err.Error(), "exists (it appeared while working); -f overwrites it") {
			t.Errorf("commit over a file that appeared: %v", err)
		}
		if got := string(readFile(t, name)); got != want {
			t.Errorf("-f %v: the file holds %q, want %q", force, got, want)
		}
		if names := dirNames(t, dir); len(names) != 1 {
			t.Errorf("-f %v: files left: %q", force, names)
		}
	}
}

// TestOutputIsSecretFile checks that enc and dec refuse an output or IV
// output that is the key file or the IV file, even with -f: replacing it
// would lose the key or IV, and with it what was encrypted.
func TestOutputIsSecretFile(t *testing.T) {
	dir := t.TempDir()
	in, key, iv := filepath.Join(dir, "in"), filepath.Join(dir, "key"), filepath.Join(dir, "iv")
	writeFile(t, in, randomBytes(rng(t), 100))
	writeFile(t, key, []byte(key128+"\n"))
	writeFile(t, iv, []byte(iv128+"\n"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"enc", "-mode", "ctr", "-key-file", key, "-iv", iv128, "-out", key}, "-out " + key + " is also the -key-file"},
		{[]string{"dec", "-mode", "ctr", "-key-file", key, "-iv", iv128, "-out", key}, "-out " + key + " is also the -key-file"},
		{[]string{"dec", "-mode", "ctr", "-key", key128, "-iv-file", iv, "-out", iv}, "-out " + iv + " is also the -iv-file"},
		{[]string{"enc", "-mode", "ctr", "-key-file", key, "-iv-out", key}, "-iv-out " + key + " is also the -key-file"},
	} {
		for _, f := range []string{"-f=false", "-f"} {
			args := append(append([]string{}, tc.args...), "-in", in, f)
			checkOneLineError(t, exe(t, nil, nil, args...), exitUsage, tc.want, args)
		}
	}
	if string(readFile(t, key)) != key128+"\n" || string(readFile(t, iv)) != iv128+"\n" {
		t.Error("the key or IV file was changed")
	}
}

// TestLongOutputName checks outputs whose names are as long as a name may
// be (255 bytes): the temporary file next to each, and the old file that
// -f moves aside, must have names of their own that fit, cut at a whole
// character.
func TestLongOutputName(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("paths of over 260 characters need long path support on Windows")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, in, randomBytes(rng(t), 100))
	out, ivOut := filepath.Join(dir, strings.Repeat("o", 255)), filepath.Join(dir, "v"+strings.Repeat("é", 127))
	writeFile(t, ivOut, []byte("old iv"))
	mustRun(t, nil, nil, "enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", ivOut, "-f")
	mustRun(t, nil, nil, "dec", "-mode", "ctr", "-key", key128, "-iv-file", ivOut, "-in", out, "-out", filepath.Join(dir, "back"))
	if !bytes.Equal(readFile(t, filepath.Join(dir, "back")), readFile(t, in)) {
		t.Error("the round trip through long names changed the message")
	}
	if names := dirNames(t, dir); len(names) != 4 {
		t.Errorf("files in the directory: %q", names)
	}
	for _, name := range []string{out, ivOut} {
		if p := tempPattern(filepath.Base(name), ".tmp"); len(p) > 128 || !utf8.ValidString(p) {
			t.Errorf("the temporary files of %s are named by %q", name, p)
		}
	}
}

// TestTempPatternAnyName checks the temporary files' names of long names
// that are not UTF-8, which Unix file systems take: the first 64 bytes or
// so of the name, whether or not they end in the middle of a character.
func TestTempPatternAnyName(t *testing.T) {
	for _, base := range []string{
		strings.Repeat("\x80", 70),        // continuation bytes only
		"a" + strings.Repeat("\xbf", 200), // one character, then continuation bytes
		strings.Repeat("\xff", 255),
		strings.Repeat("é", 40) + "\x80\x80",
	} {
		if p := tempPattern(base, ".tmp"); len(p) > 1+64+2+4 || !strings.HasPrefix(p, "."+base[:60]) {
			t.Errorf("the temporary files of %q are named by %q", base, p)
		}
	}
	if runtime.GOOS == "linux" {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "in"), filepath.Join(dir, strings.Repeat("\x80", 70))
		writeFile(t, in, []byte("message"))
		mustRun(t, nil, nil, "enc", "-mode", "ctr", "-key", key128, "-iv", key128, "-in", in, "-out", out)
		if names := dirNames(t, dir); len(names) != 2 {
			t.Errorf("files in the directory: %q", names)
		}
	}
}

// TestCleanupAfterPanic checks that a command that panics leaves no
// temporary file: main turns the panic into an error message, and the
// cleanup's deferred stop removes the outputs not committed.
func TestCleanupAfterPanic(t *testing.T) {
	dir := t.TempDir()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("no panic")
			}
		}()
		clean := newCleanup(io.Discard, "enc")
		defer clean.stop()
		out, err := clean.create(filepath.Join(dir, "out"), nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := out.w.Write([]byte("half a message")); err != nil {
			t.Fatal(err)
		}
		panic("a bug")
	}()
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("files left: %q", names)
	}
}

// TestStdoutIsSecretFile checks that seal and enc refuse a standard output
// that is the key file, as in "twofish seal -key-file k >>k": the key
// would end up followed by the output, and lost.
func TestStdoutIsSecretFile(t *testing.T) {
	dir := t.TempDir()
	in, key := filepath.Join(dir, "in"), filepath.Join(dir, "key")
	writeFile(t, in, randomBytes(rng(t), 100))
	writeFile(t, key, []byte(key256+"\n"))
	for _, args := range [][]string{
		{"seal", "-in", in, "-key-file", key},
		{"enc", "-mode", "ctr", "-iv", iv128, "-in", in, "-key-file", key},
	} {
		cmd := execCommand(t, args...)
		stdout, err := os.OpenFile(key, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = stdout, &stderr
		err = testenv.Run(t, cmd)
		stdout.Close()
		if err == nil || !strings.Contains(stderr.String(), "standard output is the -key-file") {
			t.Errorf("twofish %q >>key: %v, stderr %q", args, err, stderr.String())
		}
		if got := string(readFile(t, key)); got != key256+"\n" {
			t.Fatalf("twofish %q >>key: the key file holds %d bytes", args, len(got))
		}
	}
}

// TestSecretFileIsInput checks that seal, open, enc and dec refuse a key,
// passphrase or IV file that is the input, and write nothing. Given as
// /dev/stdin while the message comes on standard input, reading the secret
// took the message with it, and seal sealed what was left (nothing, of a
// short message) and succeeded: data lost without a word.
func TestSecretFileIsInput(t *testing.T) {
	dir := t.TempDir()
	key, iv, out := filepath.Join(dir, "key"), filepath.Join(dir, "iv"), filepath.Join(dir, "out")
	writeFile(t, key, []byte(key256+"\n"))
	writeFile(t, iv, []byte(iv128+"\n"))
	for _, args := range [][]string{
		{"seal", "-passphrase-file", key, "-in", key},
		{"seal", "-key-file", key, "-in", key},
		{"open", "-key-file", key, "-in", key},
		{"enc", "-mode", "ctr", "-iv", iv128, "-key-file", key, "-in", key},
		{"dec", "-mode", "ctr", "-key", key128, "-iv-file", iv, "-in", iv},
	} {
		in := args[len(args)-1]
		args = append(args, "-out", out)
		checkOneLineError(t, exe(t, nil, nil, args...), exitUsage, " "+in+" is also the input", args)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("twofish %q wrote %s", args, out)
		}
	}

	// Standard input, a pipe, named by the file that stands for it.
	skipWithoutDevFile(t, "/dev/stdin")
	args := []string{"seal", "-passphrase-file", "/dev/stdin", "-out", out}
	r := exe(t, []byte("correct horse battery staple\nthe message\n"), nil, args...)
	checkOneLineError(t, r, exitUsage, "-passphrase-file /dev/stdin is also the input", args)
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("twofish %q wrote %s", args, out)
	}
}

// skipWithoutDevFile skips a test that needs the Unix file name, which
// Windows has not: Wine's Windows processes find the host's /dev and /proc
// under those names, but they are not their own descriptors.
func skipWithoutDevFile(t *testing.T, name string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skipf("no %s on Windows", name)
	}
	if _, err := os.Stat(name); err != nil {
		t.Skipf("no %s here: %v", name, err)
	}
}

// TestOutputNamesStdout checks -out /dev/stdout where the shell opened
// standard output on a regular file: the output goes there, as with
// "-out -", appended after ">>". It was handled as a file of that name:
// refused as one that exists, and with -f renamed over, which replaced
// /dev/stdout itself with a regular file when root ran it.
func TestOutputNamesStdout(t *testing.T) {
	skipWithoutDevFile(t, "/dev/stdout")
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	pt := randomBytes(rng(t), 3000)
	writeFile(t, in, pt)
	args := []string{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in}
	want := mustRun(t, nil, nil, args...)
	for _, f := range []string{"-f=false", "-f"} {
		writeFile(t, out, []byte("head"))
		stdout, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := execCommand(t, append(args, "-out", "/dev/stdout", f)...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = stdout, &stderr
		err = testenv.Run(t, cmd)
		stdout.Close()
		if err != nil {
			t.Fatalf("twofish %q -out /dev/stdout %s >>out: %v, stderr %q", args, f, err, stderr.String())
		}
		if got := readFile(t, out); !bytes.Equal(got, append([]byte("head"), want...)) {
			t.Errorf("twofish %q -out /dev/stdout %s >>out: out holds %d bytes, want 4 + %d", args, f, len(got), len(want))
		}
	}
}

// TestOutputNamesDescriptor checks that an output named by a link to an
// open file descriptor that is a regular file, as /dev/stderr is where the
// shell opened standard error on a file (2>log), is refused, with -f too,
// for -out and -iv-out alike, and the link left alone: the temporary file
// was renamed over the link, which for root replaced /dev/stderr itself
// with a file. The test makes a link of its own, to /proc/self/fd/2, as
// /dev/stderr is.
func TestOutputNamesDescriptor(t *testing.T) {
	skipWithoutDevFile(t, "/proc/self/fd/2")
	dir := t.TempDir()
	in, out, link := filepath.Join(dir, "in"), filepath.Join(dir, "out"), filepath.Join(dir, "stderr")
	writeFile(t, in, randomBytes(rng(t), 3000))
	if !symlink(t, "/proc/self/fd/2", link) {
		t.Skip("no symbolic links")
	}
	for _, args := range [][]string{
		{"enc", "-mode", "ctr", "-key", key128, "-iv", iv128, "-in", in, "-out", link, "-f"},
		{"enc", "-mode", "ctr", "-key", key128, "-in", in, "-out", out, "-iv-out", link, "-f"},
	} {
		log := filepath.Join(dir, "log")
		stderr, err := os.Create(log)
		if err != nil {
			t.Fatal(err)
		}
		cmd := execCommand(t, args...)
		cmd.Stderr = stderr
		err = testenv.Run(t, cmd)
		stderr.Close()
		if err == nil || !strings.Contains(string(readFile(t, log)), link+" stands for an open file descriptor") {
			t.Errorf("twofish %q 2>log: %v, stderr %q", args, err, readFile(t, log))
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("twofish %q 2>log replaced the link: %v", args, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("twofish %q 2>log wrote %s", args, out)
		}
	}
}
