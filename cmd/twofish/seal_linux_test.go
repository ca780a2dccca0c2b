package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSealExec seals from standard input to standard output and opens the
// same way through the built command, with the passphrase in the
// environment.
func TestSealExec(t *testing.T) {
	msg := randomBytes(rng(t), 3*sealChunk+7)
	env := []string{"TWOFISH_TEST_PASSPHRASE=passphrase in the environment"}
	args := append(append([]string{"-passphrase-env", "TWOFISH_TEST_PASSPHRASE"}, fastArgon...), sealChunkFlag...)
	sealed := mustRun(t, msg, env, append([]string{"seal"}, args...)...)
	opened := mustRun(t, sealed, env, "open", "-passphrase-env", "TWOFISH_TEST_PASSPHRASE")
	if !bytes.Equal(opened, msg) {
		t.Error("seal | open through the command changed the message")
	}
	sealed[len(sealed)-1] ^= 1
	r := exe(t, sealed, env, "open", "-passphrase-env", "TWOFISH_TEST_PASSPHRASE")
	if r.code != exitFailure || !bytes.Equal(r.stdout, msg[:3*sealChunk]) || !bytes.Contains(r.stderr, []byte("last chunk")) {
		t.Errorf("open of a changed last chunk: status %d, %d bytes out, stderr %q", r.code, len(r.stdout), r.stderr)
	}
}

// TestSealInterrupted stops seal mid-way with SIGINT, as Ctrl-C does: it
// must remove its temporary file and exit with status 130.
func TestSealInterrupted(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	writeFile(t, key, randomBytes(rng(t), 32))
	out := filepath.Join(dir, "out")
	cmd := execCommand(t, "seal", "-key-file", key, "-out", out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	go stdin.Write(make([]byte, 1<<20))
	deadline := time.Now().Add(60 * time.Second)
	for {
		names := dirNames(t, dir)
		if len(names) == 2 && strings.HasPrefix(names[0], ".out.") {
			if fi, err := os.Stat(filepath.Join(dir, names[0])); err == nil && fi.Size() > sealHeaderSize {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no temporary file with data after 60s: %q", names)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("seal ended with %v, want exit status 130", err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files left besides the key: %q (stderr %q)", names, stderr.String())
	}
}

// newPTY opens a pseudo-terminal of cols columns and returns its master
// and the path of its slave.
func newPTY(t *testing.T, cols int) (*os.File, string) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	// TIOCGPTN writes a 32-bit number: read as an int, it is 2^32 times
	// too large on a 64-bit big-endian machine (s390x).
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: uint16(cols)}); err != nil {
		t.Fatalf("TIOCSWINSZ: %v", err)
	}
	return master, "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
}

// TestSealTerminal runs seal and open on a 50-column terminal: the
// passphrase is asked for without echo (twice by seal), and the progress
// line of a 96 MiB message, drawn as soon as seal starts however fast it
// ends, never reaches the terminal's edge.
func TestSealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the terminal test seals 96 MiB")
	}
	dir := t.TempDir()
	in, sealed := filepath.Join(dir, "in"), filepath.Join(dir, "sealed")
	msg := make([]byte, 96<<20)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	writeFile(t, in, msg)
	const pass = "terminal passphrase"
	run := func(args ...string) string {
		master, slave := newPTY(t, 50)
		tty, err := os.OpenFile(slave, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer tty.Close()
		cmd := execCommand(t, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var screen bytes.Buffer
		done := make(chan struct{})
		go func() {
			defer close(done)
			buf := make([]byte, 4096)
			asked := 0
			for {
				n, err := master.Read(buf)
				screen.Write(buf[:n])
				prompts := strings.Count(screen.String(), "passphrase: ") + strings.Count(screen.String(), "passphrase again: ")
				for ; asked < prompts; asked++ {
					// Type once the terminal stops echoing, as a person
					// would after the prompt (the minute only bounds a
					// hang: typed with echo on, the passphrase shows, and
					// the test fails).
					for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
						if tio, err := unix.IoctlGetTermios(int(master.Fd()), unix.TCGETS); err != nil || tio.Lflag&unix.ECHO == 0 {
							break
						}
					}
					master.Write([]byte(pass + "\r"))
				}
				if err != nil {
					return
				}
			}
		}()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("twofish %q on a terminal: %v\n%s", args, err, screen.String())
		}
		// The master is read to its end (EIO once the slave is closed and
		// the command gone) before it is closed: all the command wrote.
		tty.Close()
		<-done
		master.Close()
		return screen.String()
	}

	screen := run(append([]string{"seal", "-in", in, "-out", sealed}, fastArgon...)...)
	// Each prompt ends its line once answered, so that what follows
	// starts on a line of its own (the terminal turns "\n" into "\r\n").
	if strings.Count(screen, "passphrase") != 2 || strings.Contains(screen, pass) || !strings.Contains(screen, "passphrase: \r\npassphrase again: \r\n") {
		t.Errorf("seal's prompts (twice, without echo, each ending its line):\n%q", screen)
	}
	if !strings.Contains(screen, "%") {
		t.Errorf("no progress line on the terminal:\n%q", screen)
	}
	for _, line := range strings.FieldsFunc(screen, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if len(strings.TrimRight(line, " ")) >= 50 {
			t.Errorf("a line of %d columns on a 50-column terminal: %q", len(line), line)
		}
	}
	// The input's 96 MiB go before open writes 96 more: at most two such
	// files at a time in the temporary directory.
	if err := os.Remove(in); err != nil {
		t.Fatal(err)
	}
	screen = run("open", "-in", sealed, "-out", filepath.Join(dir, "out"))
	if strings.Count(screen, "passphrase") != 1 || strings.Contains(screen, pass) || !strings.HasPrefix(screen, "passphrase: \r\n") {
		t.Errorf("open's prompt (once, without echo, ending its line):\n%q", screen)
	}
	if !bytes.Equal(readFile(t, filepath.Join(dir, "out")), msg) {
		t.Error("the message did not survive seal and open on a terminal")
	}
}

// TestSealGiB seals and opens 1 GiB through the command, from a generated
// stream to a file and back to a hash, in exhaustive runs.
func TestSealGiB(t *testing.T) {
	if !exhaustive() {
		t.Skip("1 GiB through seal and open: it runs with TWOFISH_TEST_EXHAUSTIVE=1")
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	writeFile(t, key, randomBytes(rng(t), 32))
	sealed := filepath.Join(dir, "sealed")
	const size = 1 << 30
	gen := func(w io.Writer) []byte {
		h := sha256.New()
		r := rand.NewChaCha8([32]byte{1})
		buf := make([]byte, 1<<20)
		for n := 0; n < size; n += len(buf) {
			r.Read(buf)
			h.Write(buf)
			if _, err := w.Write(buf); err != nil {
				break
			}
		}
		return h.Sum(nil)
	}
	cmd := execCommand(t, "seal", "-key-file", key, "-out", sealed)
	stdin, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	want := gen(stdin)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("seal: %v", err)
	}
	cmd = execCommand(t, "open", "-key-file", key, "-in", sealed)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	n, _ := io.Copy(h, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("open: %v", err)
	}
	if n != size || !bytes.Equal(h.Sum(nil), want) {
		t.Errorf("open gave %d bytes back, with another hash", n)
	}
}

// TestNoCiphertextToTerminal checks that seal and enc refuse to write
// ciphertext to a terminal, as age does: status 2, and nothing written;
// standard output named -out /dev/stdout too, and a terminal named by its
// device (-out /dev/tty, here the pseudo-terminal's slave).
func TestNoCiphertextToTerminal(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	writeFile(t, key, randomBytes(rng(t), 32))
	for _, args := range [][]string{
		{"seal", "-key-file", key},
		{"enc", "-mode", "ctr", "-key", key128, "-iv", key128},
		{"seal", "-key-file", key, "-out", "/dev/stdout"},
		{"enc", "-mode", "ctr", "-key", key128, "-iv", key128, "-out", "/dev/stdout"},
		{"seal", "-key-file", key, "-out", "SLAVE"},
		{"enc", "-mode", "ctr", "-key", key128, "-iv", key128, "-out", "SLAVE"},
	} {
		master, slave := newPTY(t, 80)
		tty, err := os.OpenFile(slave, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := execCommand(t, args...)
		cmd.Stdin = bytes.NewReader([]byte("plaintext"))
		cmd.Stdout = tty
		if args[len(args)-1] == "SLAVE" {
			// Standard output elsewhere: the terminal is the device alone.
			cmd = execCommand(t, append(slices.Clip(args[:len(args)-1]), slave)...)
			cmd.Stdin = bytes.NewReader([]byte("plaintext"))
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err = cmd.Run()
		tty.Close()
		master.Close()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage || !strings.Contains(stderr.String(), "to a terminal") {
			t.Errorf("twofish %q to a terminal: %v, stderr %q", args, err, stderr.String())
		}
	}
}

// TestDevNullIsNoTerminal checks that seal and enc write to /dev/null, a
// character device but no terminal.
func TestDevNullIsNoTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	writeFile(t, key, randomBytes(rng(t), 32))
	for _, args := range [][]string{
		{"seal", "-key-file", key},
		{"enc", "-mode", "ctr", "-key", key128, "-iv", key128},
	} {
		cmd := execCommand(t, args...)
		cmd.Stdin = bytes.NewReader([]byte("plaintext"))
		cmd.Stdout = null
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("twofish %q > /dev/null: %v: %s", args, err, stderr.String())
		}
	}
}

// TestSecretFilesBounded gives a 128 MiB file (sparse) and /dev/zero, which
// has no end, as the key, passphrase or IV file of each command: each must
// refuse it after reading a little of it, and so stop, where reading the
// file whole before checking its length cost the file's size in memory and
// never ended on /dev/zero. (The child's maximum resident size, which
// would measure the memory, counts the test binary's own before the exec.)
func TestSecretFilesBounded(t *testing.T) {
	dir := t.TempDir()
	big, msg := filepath.Join(dir, "big"), filepath.Join(dir, "msg")
	writeFile(t, msg, []byte("sixteen byte msg"))
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(128 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, file := range []string{big, "/dev/zero"} {
		for _, args := range [][]string{
			{"seal", "-in", msg, "-key-file", file},
			{"seal", "-in", msg, "-passphrase-file", file},
			{"enc", "-mode", "ctr", "-iv", iv128, "-in", msg, "-key-file", file},
			{"dec", "-mode", "ctr", "-key", key128, "-in", msg, "-iv-file", file},
		} {
			args = append(args, "-out", filepath.Join(dir, "out"))
			cmd := execCommand(t, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Not a speed limit: a command that reads the file whole
			// never stops on /dev/zero.
			hang := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
			err := cmd.Wait()
			if !hang.Stop() {
				t.Fatalf("twofish %q was still reading after 2 minutes", args)
			}
			if _, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			}
			r := execResult{code: cmd.ProcessState.ExitCode(), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
			checkOneLineError(t, r, exitFailure, "over 64 KiB", args)
		}
	}
}

// TestPromptPassphrase types at promptPassphrase on a terminal: a
// passphrase, typed twice alike where seal asks twice, is the passphrase;
// an empty one, two that differ, or the end of input at either prompt are
// refused.
func TestPromptPassphrase(t *testing.T) {
	for _, tc := range []struct {
		confirm bool
		typed   string
		want    string // the passphrase, or the error
	}{
		{false, "open sesame\r", "open sesame"},
		{true, "open sesame\ropen sesame\r", "open sesame"},
		{true, "open sesame\ropen sesamE\r", "the passphrases differ"},
		{true, "open sesame\r\r", "the passphrases differ"},
		{false, "\r", "the passphrase is empty"},
		{true, "\ropen sesame\r", "the passphrase is empty"},
		// A backspace takes back the byte before it, as x/term's
		// ReadPassword has it where the terminal's erase key is DEL (the
		// terminal itself erases then).
		{false, "open sesamx\be\r", "open sesame"},
		{false, "open sesamx\x7fe\r", "open sesame"},
		// Ctrl-D at the start of a line, at either prompt: the end of input.
		{false, "\x04", "no passphrase: the terminal's input ended"},
		{true, "open sesame\r\x04", "no passphrase: the terminal's input ended"},
	} {
		master, slave := newPTY(t, 80)
		tty, err := os.OpenFile(slave, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, master) // the prompts and any echo
		if _, err := master.Write([]byte(tc.typed)); err != nil {
			t.Fatal(err)
		}
		p, err := promptWithin(t, tty, tc.confirm)
		got := string(p)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("typed %q (twice: %v): got %q, want %q", tc.typed, tc.confirm, got, tc.want)
		}
		tty.Close()
	}
}

// TestPromptHangUp hangs the terminal up (closes its master side, as a
// closed window or a lost connection does) while the prompt waits: the
// prompt ends with an error, whether its read was waiting (an I/O error)
// or had yet to start (no bytes, and no end to them).
func TestPromptHangUp(t *testing.T) {
	master, slave := newPTY(t, 80)
	tty, err := os.OpenFile(slave, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	// The reader closes the master itself once the prompt shows: a Close
	// from another goroutine would wait for its Read to end.
	go func() {
		var screen []byte
		for !bytes.Contains(screen, []byte("passphrase: ")) {
			buf := make([]byte, 256)
			n, err := master.Read(buf)
			if err != nil {
				return
			}
			screen = append(screen, buf[:n]...)
		}
		master.Close()
	}()
	if _, err := promptWithin(t, tty, false); err == nil {
		t.Error("a passphrase from a terminal that hung up")
	}
}

// TestPromptStopContinue stops seal at its passphrase prompt (Ctrl-Z) in
// an interactive bash on a terminal, and continues it (fg): the shell has
// the terminal back with the echo on while seal is stopped, and seal asks
// again with the echo off, so that the passphrase typed after fg, which
// seals the file, does not show.
func TestPromptStopContinue(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the command under job control")
	}
	bin := tool(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, in, []byte("a message"))
	master, slave := newPTY(t, 200)
	tty, err := os.OpenFile(slave, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	// Without line editing bash reads its commands with the terminal's
	// echo, so the echo that a stopped job leaves shows in the modes.
	sh := exec.Command(bash, "--norc", "--noprofile", "--noediting", "-i")
	sh.Stdin, sh.Stdout, sh.Stderr = tty, tty, tty
	sh.Env = append(os.Environ(), "PS1=$ ", "TERM=dumb")
	sh.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sh.Process.Kill()
		sh.Wait()
	}()

	var mu sync.Mutex
	var screen []byte
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen = append(screen, buf[:n]...)
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// waitFor waits for the n-th s on the screen.
	waitFor := func(s string, n int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			got := strings.Count(string(screen), s)
			mu.Unlock()
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("no %q (%d) on the screen after a minute:\n%q", s, n, screen)
			}
		}
	}
	echo := func() bool {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Lflag&unix.ECHO != 0
	}
	typeIn := func(s string) {
		if _, err := master.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}

	const pass = "stopped words"
	typeIn(fmt.Sprintf("'%s' seal -in '%s' -out '%s'\r", bin, in, out))
	waitFor("passphrase: ", 1)
	typeIn("\x1a")
	waitFor("Stopped", 1)
	if !echo() {
		t.Error("the terminal has no echo while seal is stopped")
	}
	typeIn("fg\r")
	waitFor("passphrase: ", 2)
	if echo() {
		t.Error("the terminal echoes at the prompt after fg")
	}
	typeIn(pass + "\r")
	waitFor("passphrase again: ", 1)
	typeIn(pass + "\r")
	typeIn("echo status-$?\r")
	waitFor("status-0", 1)
	typeIn("exit\r")
	mu.Lock()
	s := string(screen)
	mu.Unlock()
	if strings.Contains(s, pass) {
		t.Errorf("the screen shows the passphrase:\n%q", s)
	}
	open := execCommand(t, "open", "-in", out, "-out", "-", "-passphrase-env", "PASS")
	open.Env = append(os.Environ(), "PASS="+pass)
	if got, err := open.Output(); err != nil || string(got) != "a message" {
		t.Errorf("open: %q, %v", got, err)
	}
}

// promptWithin is promptPassphrase on tty, failing the test if it has not
// returned in a minute: a prompt that reads on at the end of input or
// after a hang-up would otherwise hold the test until go test's timeout.
func promptWithin(t *testing.T, tty *os.File, confirm bool) ([]byte, error) {
	t.Helper()
	type result struct {
		p   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := promptPassphrase(tty, tty, confirm)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.p, r.err
	case <-time.After(time.Minute):
		t.Fatal("the prompt still reads after a minute")
		return nil, nil
	}
}

// TestPromptInterruptRestoresEcho interrupts seal (Ctrl-C, SIGINT) while
// it waits at the passphrase prompt, whose terminal has echo off: seal
// exits with status 130, leaves no output, and leaves the terminal echoing
// again, as the shell it returns to needs.
func TestPromptInterruptRestoresEcho(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, in, []byte("a message"))
	master, slave := newPTY(t, 80)
	tty, err := os.OpenFile(slave, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	cmd := execCommand(t, "seal", "-in", in, "-out", out)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	prompted := make(chan struct{})
	go func() {
		buf, signal := make([]byte, 4096), prompted
		for {
			n, err := master.Read(buf)
			screen.Write(buf[:n])
			if strings.Contains(screen.String(), "passphrase: ") && signal != nil {
				close(signal)
				signal = nil
			}
			if err != nil {
				return
			}
		}
	}()
	echoing := func() bool {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Lflag&unix.ECHO != 0
	}
	select {
	case <-prompted:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("no passphrase prompt after 60s")
	}
	// The prompt is written before echo goes off: wait for that too.
	for end := time.Now().Add(10 * time.Second); echoing() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	if echoing() {
		t.Fatal("the terminal still echoes at the passphrase prompt")
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("seal ended with %v, want exit status 130", err)
	}
	if !echoing() {
		t.Error("seal, interrupted at its prompt, left the terminal without echo")
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files left besides the input: %q", names)
	}
}

// TestOpenMakesNoFileBeforeTheKey checks that open makes its output file
// only once the key authenticates the header: while it waits for the
// passphrase, read here from a named pipe, nothing of the output's is in
// its directory, so that a process stopped for want of memory in Argon2id
// (which a header within the ceilings can ask for, and which leaves a
// temporary file where one was made) leaves nothing. Then a wrong
// passphrase leaves nothing, and the right one the message.
func TestOpenMakesNoFileBeforeTheKey(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 3*sealChunk)
	sealFile(t, dir, msg, "sealed", append(fastArgon, "-passphrase-file", pass)...)
	for _, secret := range []string{"wrong\n", string(readFile(t, pass))} {
		outDir := t.TempDir()
		fifo, out := filepath.Join(t.TempDir(), "fifo"), filepath.Join(outDir, "msg")
		if err := unix.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"open", "-in", filepath.Join(dir, "sealed"), "-out", out, "-passphrase-file", fifo}
		done := make(chan execResult, 1)
		go func() {
			status, stdout, stderr := runTool(t, args...)
			done <- execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}
		}()
		// A writer's non-blocking open fails (ENXIO) until open has the
		// pipe open to read the passphrase.
		var w *os.File
		for w == nil {
			select {
			case r := <-done:
				t.Fatalf("twofish %q ended before it read the passphrase: status %d: %s", args, r.code, r.stderr)
			default:
			}
			f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			switch {
			case err == nil:
				w = f
			case errors.Is(err, syscall.ENXIO):
				time.Sleep(time.Millisecond)
			default:
				t.Fatal(err)
			}
		}
		if names := dirNames(t, outDir); len(names) != 0 {
			t.Errorf("twofish %q: files in the output's directory before the passphrase: %q", args, names)
		}
		if _, err := io.WriteString(w, secret); err != nil {
			t.Fatal(err)
		}
		w.Close()
		r := <-done
		if secret == "wrong\n" {
			checkOneLineError(t, r, exitFailure, "wrong passphrase", args)
			if names := dirNames(t, outDir); len(names) != 0 {
				t.Errorf("twofish %q with a wrong passphrase left %q", args, names)
			}
			continue
		}
		if r.code != exitOK {
			t.Fatalf("twofish %q: status %d: %s", args, r.code, r.stderr)
		}
		if !bytes.Equal(readFile(t, out), readFile(t, msg)) {
			t.Errorf("twofish %q: the output is not the message", args)
		}
	}
}

// TestArgon2MemoryOverLimit checks that seal and open refuse Argon2id
// memory that the process cannot have, here under ulimit -v, with a
// one-line error before the secret is read (the passphrase file does not
// exist), where the runtime would stop the process ("fatal error: out of
// memory", status 2); and that the same limit leaves the tests' Argon2id
// alone.
func TestArgon2MemoryOverLimit(t *testing.T) {
	if os.Getenv("TWOFISH_TEST_TOOL") != "" || buildRace || strconv.IntSize == 32 {
		t.Skip("the limit is sized for the 64-bit command run natively, without the race detector's shadow memory")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to set the limit with")
	}
	dir, msg, _, pass := sealSetup(t, 100)
	sealFile(t, dir, msg, "sealed", append(fastArgon, "-passphrase-file", pass)...)
	big := readFile(t, filepath.Join(dir, "sealed"))
	binary.BigEndian.PutUint32(big[12:16], 1)        // one pass
	binary.BigEndian.PutUint32(big[16:20], 2048<<10) // 2 GiB, the ceiling
	writeFile(t, filepath.Join(dir, "big"), big)
	out, missing := filepath.Join(dir, "out"), filepath.Join(dir, "missing")
	// About 1.4 GiB: room for the Go runtime's reservations (1.2 GiB of
	// address space for a process of Go 1.26 on linux/amd64), not for
	// 2 GiB more.
	limited := func(args ...string) execResult {
		cmd := exec.Command(sh, append([]string{"-c", `ulimit -v 1500000 && exec "$0" "$@"`, tool(t)}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatal(err)
			}
		}
		return execResult{code: cmd.ProcessState.ExitCode(), stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"open", "-in", filepath.Join(dir, "big"), "-out", out, "-passphrase-file", missing},
			"the file's header: Argon2id asks for 2.0 GiB of memory, more than this process can have"},
		{[]string{"seal", "-in", msg, "-out", out, "-passphrase-file", missing, "-argon2-memory", "2048", "-argon2-time", "1"},
			"-argon2-memory 2048: more memory than this process can have"},
	} {
		checkOneLineError(t, limited(tc.args...), exitFailure, tc.want, tc.args)
		if names := dirNames(t, dir); len(names) != 5 {
			t.Errorf("twofish %q: files in the directory: %q", tc.args, names)
		}
	}
	args := []string{"open", "-in", filepath.Join(dir, "sealed"), "-out", out, "-passphrase-file", pass}
	if r := limited(args...); r.code != exitOK || !bytes.Equal(readFile(t, out), readFile(t, msg)) {
		t.Errorf("twofish %q under the limit: status %d: %s", args, r.code, r.stderr)
	}
}
