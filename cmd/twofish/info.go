package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpu"
)

// infoJSON is what "twofish info -json" prints.
type infoJSON struct {
	CPU string `json:"cpu"`
	// What the CPU policy sees: the CPUID vendor, family and model (hex,
	// as libgcrypt prints them), the features it weighs, less those that
	// the cpu.* options of GODEBUG given in GODEBUG turn off, and the Linux
	// Gather Data Sampling status ("" where the OS gives none).
	Vendor          string     `json:"vendor"`
	Family          string     `json:"family"`
	Model           string     `json:"model"`
	Features        []string   `json:"features"`
	GODEBUG         string     `json:"godebug"`
	GDS             string     `json:"gather_data_sampling"`
	Go              string     `json:"go"`
	GOOS            string     `json:"goos"`
	GOARCH          string     `json:"goarch"`
	Implementations []implJSON `json:"implementations"`        // in order of preference
	Selected        string     `json:"selected"`               // the implementation of NewCipher's long runs
	Reason          string     `json:"reason"`                 // and why
	ConstantTime    bool       `json:"selected_constant_time"` // whether every path of NewCipher is
	// Paths are the implementations of each shape of work of NewCipher,
	// and ConstantTimePaths those of NewCipherConstantTime.
	Paths             pathsJSON `json:"paths"`
	ConstantTimePaths pathsJSON `json:"constant_time_paths"`
	// Choices are every CPU-dependent choice of the build (internal/cpu):
	// the block kernel, the 1-way kernels' body, GHASH, OCB's offsets.
	Choices []choiceJSON `json:"choices"`
}

// choiceJSON is one CPU-dependent choice in "twofish info -json".
type choiceJSON struct {
	Part    string       `json:"part"`
	Chosen  string       `json:"chosen"`
	Reason  string       `json:"reason"`
	Options []optionJSON `json:"options"` // in order of preference
}

// pathsJSON is twofish.Paths in "twofish info -json".
type pathsJSON struct {
	Single     pathJSON `json:"single"`
	Short      pathJSON `json:"short"`
	Bulk       pathJSON `json:"bulk"`
	ShortBelow int      `json:"short_below"` // runs of fewer blocks are short
	FusedFrom  int      `json:"fused_from"`  // but the fused modes' from this many
}

// pathJSON is twofish.Path in "twofish info -json".
type pathJSON struct {
	Impl         string `json:"impl"`
	ConstantTime bool   `json:"constant_time"`
}

func toPathsJSON(p twofish.Paths) pathsJSON {
	j := func(p twofish.Path) pathJSON { return pathJSON(p) }
	return pathsJSON{j(p.Single), j(p.Short), j(p.Bulk), p.ShortBelow, p.FusedFrom}
}

// choicesJSON is cs in "twofish info -json".
func choicesJSON(cs []cpu.Choice) []choiceJSON {
	var js []choiceJSON
	for _, c := range cs {
		cj := choiceJSON{Part: c.Part, Chosen: c.Name, Reason: c.Reason}
		for _, o := range c.Options {
			cj.Options = append(cj.Options, optionJSON{o.Name, o.Supported})
		}
		js = append(js, cj)
	}
	return js
}

// allConstantTime reports whether every path of p is constant-time.
func allConstantTime(p twofish.Paths) bool {
	return p.Single.ConstantTime && p.Short.ConstantTime && p.Bulk.ConstantTime
}

// optionJSON is one implementation a choice had.
type optionJSON struct {
	Name      string `json:"name"`
	Supported bool   `json:"supported"`
}

// implJSON is one implementation in "twofish info -json".
type implJSON struct {
	Name         string `json:"name"`
	Blocks       int    `json:"blocks"`
	ConstantTime bool   `json:"constant_time"`
	Supported    bool   `json:"supported"`
}

// runInfo implements "twofish info": what the CPU policy sees of the
// processor (vendor, family and model, features, Gather Data Sampling), a
// line per implementation compiled into this build, then the ones NewCipher
// runs for each shape of work and whether they are constant-time, and every
// CPU-dependent choice of the build with its options and reasons; with
// -json, the same and the Go version as one JSON object.
func runInfo(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("info", " [-json]", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object, for scripts")
	if !parseFlags(fs, args) {
		return exitUsage
	}
	// Every write goes through out, which keeps the first error, so that a
	// failed write anywhere (a full disk, a closed pipe) fails the command
	// rather than leave its output cut short with status 0: fmt.Fprint's
	// callers here drop the errors.
	out := &errWriter{w: stdout}
	writeInfo(out, *asJSON)
	if out.err != nil {
		fmt.Fprintln(stderr, "twofish info: writing the output:", out.err)
		return exitFailure
	}
	return exitOK
}

// writeInfo writes what runInfo prints, as JSON if asJSON, to stdout, whose
// writes' errors are for the caller to see (an infoJSON always encodes).
func writeInfo(stdout io.Writer, asJSON bool) {
	f := cpu.HostFacts()
	if asJSON {
		info := infoJSON{
			CPU: cpuName(), Vendor: f.Vendor, Family: hexNumber(f.Family), Model: hexNumber(f.Model),
			Features: f.Features(), GODEBUG: f.GODEBUG, GDS: cpu.ReadGDS(),
			Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		}
		if info.Features == nil {
			info.Features = []string{}
		}
		for _, im := range twofish.Implementations() {
			info.Implementations = append(info.Implementations, implJSON{im.Name, im.Blocks, im.ConstantTime, im.Supported})
		}
		info.Selected, info.Reason = twofish.AutoImplementation()
		def, ct := paths()
		info.ConstantTime = allConstantTime(def)
		info.Paths, info.ConstantTimePaths = toPathsJSON(def), toPathsJSON(ct)
		info.Choices = choicesJSON(cpu.Host().All())
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(info)
		return
	}
	fmt.Fprintf(stdout, "cpu: %s\n", cpuName())
	fmt.Fprintf(stdout, "vendor: %s, %s\n", orNone(f.Vendor), f.FamilyModel())
	fmt.Fprintf(stdout, "features: %s\n", features(f))
	fmt.Fprintf(stdout, "gather data sampling: %s\n", orNone(cpu.ReadGDS()))
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "implementation\tblocks\tconstant-time\tsupported")
	for _, im := range twofish.Implementations() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", im.Name, im.Blocks, yesNo(im.ConstantTime), yesNo(im.Supported))
	}
	tw.Flush()
	fmt.Fprint(stdout, shapes())
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, choices(cpu.Host().All()))
}

// paths returns the paths of a Cipher from NewCipher and of one from
// NewCipherConstantTime.
func paths() (def, ct twofish.Paths) {
	key := make([]byte, 16)
	c, _ := twofish.NewCipher(key)
	cct, _ := twofish.NewCipherConstantTime(key)
	return c.Paths(), cct.Paths()
}

// shapes says which implementation serves each shape of work for
// NewCipher, and whether that is constant-time, with NewCipherConstantTime's
// choice where it is not: two lines.
func shapes() string { return shapesOf(paths()) }

// shapesOf is shapes for the paths def of NewCipher and ct of
// NewCipherConstantTime.
func shapesOf(def, ct twofish.Paths) string {
	short := "short runs " + def.Short.Impl
	if def.ShortBelow > 0 {
		short = "runs under " + strconv.Itoa(def.ShortBelow) + " blocks " + def.Short.Impl
		if def.FusedFrom > 0 && def.FusedFrom < def.ShortBelow {
			short += " (CTR, CBC and CFB decryption, XTS and OCB " + def.Bulk.Impl + " from " + strconv.Itoa(def.FusedFrom) + ")"
		}
	}
	s := "NewCipher: long runs " + def.Bulk.Impl + ", " + short + ", single blocks " + def.Single.Impl + "\n"
	var tables []string
	for _, p := range []twofish.Path{def.Bulk, def.Short, def.Single} {
		if !p.ConstantTime && !slices.Contains(tables, p.Impl) {
			tables = append(tables, p.Impl)
		}
	}
	if len(tables) == 0 {
		return s + "constant time: yes, every shape and mode (no secret-dependent memory access or branch)\n"
	}
	verb := " index"
	if len(tables) == 1 {
		verb = " indexes"
	}
	return s + "constant time: no, " + strings.Join(tables, ", ") + verb + " key-dependent tables; NewCipherConstantTime uses " +
		ct.Bulk.Impl + " for every shape\n"
}

// choices lists the CPU-dependent choices cs (cpu.Host().All(): every
// one), a line each: the part, the implementation chosen and why, then the
// options with "-" marking those the CPU does not run.
func choices(cs []cpu.Choice) string {
	var b strings.Builder
	for _, c := range cs {
		var opts []string
		for _, o := range c.Options {
			if o.Supported {
				opts = append(opts, o.Name)
			} else {
				opts = append(opts, "-"+o.Name)
			}
		}
		fmt.Fprintf(&b, "%s: %s (of %s): %s\n", c.Part, c.Name, strings.Join(opts, " "), c.Reason)
	}
	return b.String()
}

// features lists the features the policy weighs, and the GODEBUG options
// that turned others off: "AVX2 OSYMM (GODEBUG cpu.avx512f=off)".
func features(f cpu.Facts) string {
	s := orNone(strings.Join(f.Features(), " "))
	if f.GODEBUG != "" {
		s += " (GODEBUG " + f.GODEBUG + ")"
	}
	return s
}

// hexNumber formats a family or model number as libgcrypt prints it: "0x1a".
func hexNumber(n int) string { return "0x" + strconv.FormatInt(int64(n), 16) }

// orNone returns s, or "none" if s is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// yesNo spells b for a table.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
