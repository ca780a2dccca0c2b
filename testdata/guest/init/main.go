//go:build linux

// Command init is the first process of the emulated machines that run a
// test binary where the host cannot: Bochs with an AVX-512 CPU
// (testdata/bochs) and QEMU for 386 binaries (testdata/qemu386). It mounts
// /proc, /sys, /dev and /tmp; prints the CPU's model and vector features as
// the guest kernel sees them; runs the programs /run/1/bin, /run/2/bin, ...
// in turn, each with the arguments in args beside it (one a line) and the
// environment in env, in the directory that dir names, or else in /work if
// the initramfs has it, or else in /tmp, and prints each one's output
// between markers with its number and exit status; and powers the machine
// off. A boot can be most of an emulated run's time (Bochs takes about 70
// seconds on Zen 5 to reach init), so a harness runs all its programs in
// one.
//
// The harnesses build it as a static binary:
//
//	CGO_ENABLED=0 GOARCH=amd64 go build -o init.bin ./testdata/guest/init
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func main() {
	for _, d := range []string{"/proc", "/sys", "/dev", "/tmp"} {
		os.MkdirAll(d, 0o755)
	}
	mount("proc", "/proc", "proc")
	mount("sysfs", "/sys", "sysfs")
	mount("devtmpfs", "/dev", "devtmpfs")
	mount("tmpfs", "/tmp", "tmpfs")

	// The features as the guest kernel reports them: CPUID and the XCR0
	// bits it enabled.
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			if strings.HasPrefix(l, "model name") {
				fmt.Println("@@GUEST", l)
			}
			if strings.HasPrefix(l, "flags") {
				var want []string
				for _, f := range strings.Fields(l) {
					if strings.HasPrefix(f, "avx") || f == "gfni" || f == "xsave" || f == "bmi2" {
						want = append(want, f)
					}
				}
				fmt.Println("@@GUEST flags:", strings.Join(want, " "))
				break
			}
		}
	}

	for n := 1; ; n++ {
		dir := fmt.Sprintf("/run/%d", n)
		if _, err := os.Stat(dir + "/bin"); err != nil {
			break
		}
		run(n, dir)
	}
	os.Stdout.Sync()
	// Wait until the UART has sent everything (TCSBRK, that is tcdrain):
	// otherwise power-off cuts the tail of the output.
	syscall.Syscall(syscall.SYS_IOCTL, 1, 0x5409 /* TCSBRK */, 1)
	time.Sleep(200 * time.Millisecond)
	syscall.Sync()
	syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF)
	for {
		time.Sleep(time.Hour)
	}
}

// run runs the program dir/bin as the package comment says, between the
// markers @@START n and @@EXIT n=status@@.
func run(n int, dir string) {
	cmd := exec.Command(dir+"/bin", lines(dir+"/args")...)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stdout // one serial stream
	cmd.Dir = "/tmp"
	if fi, err := os.Stat("/work"); err == nil && fi.IsDir() {
		cmd.Dir = "/work"
	}
	if d := lines(dir + "/dir"); len(d) == 1 {
		cmd.Dir = d[0]
	}
	cmd.Env = []string{"PATH=/", "HOME=/tmp", "TMPDIR=/tmp", "GOTRACEBACK=all"}
	for _, l := range lines(dir + "/env") {
		if strings.Contains(l, "=") {
			cmd.Env = append(cmd.Env, l)
		}
	}
	fmt.Printf("@@START %d\n", n)
	t0 := time.Now()
	code := 0
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		} else {
			fmt.Println("@@ERROR", err)
			code = 255
		}
	}
	// Guest time is virtual (the emulator runs with clock sync=none):
	// informative only.
	fmt.Printf("@@GUEST_ELAPSED %v\n", time.Since(t0))
	fmt.Printf("@@EXIT %d=%d@@\n", n, code)
}

func mount(source, target, fstype string) {
	if err := syscall.Mount(source, target, fstype, 0, ""); err != nil {
		fmt.Println("@@MOUNT_ERROR", target, err)
	}
}

// lines returns the non-empty lines of the file name, or nil.
func lines(name string) []string {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
