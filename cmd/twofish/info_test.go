package main

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpu"
)

// TestInfo checks that info describes the CPU as the policy sees it, then
// has a header, a line per implementation and a last line naming the one
// NewCipher selects.
func TestInfo(t *testing.T) {
	status, stdout, stderr := runTool(t, "info")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish info: exit status %d, stderr:\n%s", status, stderr)
	}
	sections := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n\n")
	if len(sections) != 3 {
		t.Fatalf("want three sections (CPU, implementations, choices) apart by blank lines:\n%s", stdout)
	}
	cpuLines, table := sections[0], sections[1]
	if want := strings.TrimSuffix(choices(cpu.Host().All()), "\n"); sections[2] != want {
		t.Errorf("choices:\n%s\nwant:\n%s", sections[2], want)
	}
	if n := len(strings.Split(sections[2], "\n")); n != len(cpu.Host().All()) {
		t.Errorf("%d lines of choices, want %d", n, len(cpu.Host().All()))
	}

	f := cpu.HostFacts()
	features := strings.Join(f.Features(), " ")
	if features == "" {
		features = "none"
	}
	if f.GODEBUG != "" {
		features += " (GODEBUG " + f.GODEBUG + ")"
	}
	gds := cpu.ReadGDS()
	if gds == "" {
		gds = "none"
	}
	vendor := f.Vendor
	if vendor == "" {
		vendor = "none"
	}
	wantCPU := []string{
		"cpu: " + cpuName(),
		"vendor: " + vendor + ", family 0x" + strconv.FormatInt(int64(f.Family), 16) + " model 0x" + strconv.FormatInt(int64(f.Model), 16),
		"features: " + features,
		"gather data sampling: " + gds,
	}
	if got := strings.Split(cpuLines, "\n"); !slices.Equal(got, wantCPU) {
		t.Errorf("CPU lines:\n%s\nwant:\n%s", cpuLines, strings.Join(wantCPU, "\n"))
	}

	lines := strings.Split(table, "\n")
	impls := twofish.Implementations()
	if len(lines) != len(impls)+3 {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(impls)+3, table)
	}
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "implementation blocks constant-time supported" {
		t.Errorf("header %q", lines[0])
	}
	for i, im := range impls {
		want := []string{im.Name, strconv.Itoa(im.Blocks), yesNo(im.ConstantTime), yesNo(im.Supported)}
		if got := strings.Fields(lines[i+1]); !slices.Equal(got, want) {
			t.Errorf("line %d: got %q, want fields %q", i+1, lines[i+1], want)
		}
	}
	c, _ := twofish.NewCipher(make([]byte, 16))
	p := c.Paths()
	if want := "NewCipher: long runs " + p.Bulk.Impl + ", "; !strings.HasPrefix(lines[len(lines)-2], want) ||
		!strings.HasSuffix(lines[len(lines)-2], ", single blocks "+p.Single.Impl) || !strings.Contains(lines[len(lines)-2], " "+p.Short.Impl+",") && !strings.Contains(lines[len(lines)-2], " "+p.Short.Impl+" (") {
		t.Errorf("line %q, want the paths %+v", lines[len(lines)-2], p)
	}
	if want := "constant time: " + yesNo(c.ConstantTime()) + ","; !strings.HasPrefix(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want it to start %q", lines[len(lines)-1], want)
	}
}

// TestShapesFused checks that the line on NewCipher's paths says where the
// fused modes leave the short-run crossover: on a Zen 5 without GFNI,
// avx512-vbmi's fused kernels take CTR from 5 blocks, its plain ones runs
// from 7.
func TestShapesFused(t *testing.T) {
	def := twofish.Paths{
		Single: twofish.Path{Impl: "amd64-1way"}, Short: twofish.Path{Impl: "amd64-3way"},
		Bulk: twofish.Path{Impl: "avx512-vbmi", ConstantTime: true}, ShortBelow: 7, FusedFrom: 5,
	}
	ct := twofish.Paths{Single: def.Bulk, Short: def.Bulk, Bulk: def.Bulk}
	want := "NewCipher: long runs avx512-vbmi, runs under 7 blocks amd64-3way (CTR, CBC and CFB decryption, XTS and OCB avx512-vbmi from 5), single blocks amd64-1way\n"
	if got, _, _ := strings.Cut(shapesOf(def, ct), "constant time"); got != want {
		t.Errorf("shapesOf = %q, want %q", got, want)
	}
	def.ShortBelow = 4 // avx512-gfni's: the fused modes follow it
	if got, _, _ := strings.Cut(shapesOf(def, ct), "constant time"); strings.Contains(got, "from 5") {
		t.Errorf("shapesOf = %q, with the fused modes from 5 blocks and the crossover at 4", got)
	}
}

// TestShapesLines checks the two lines on NewCipher's paths for the plans
// of an AVX2 CPU and of a pinned constant-time implementation.
func TestShapesLines(t *testing.T) {
	got := shapes()
	def, ct := paths()
	if def.ShortBelow > 0 && !strings.Contains(got, "runs under "+strconv.Itoa(def.ShortBelow)+" blocks "+def.Short.Impl) {
		t.Errorf("shapes() = %q, want the crossover at %d blocks", got, def.ShortBelow)
	}
	if !ct.Bulk.ConstantTime || !ct.Short.ConstantTime || !ct.Single.ConstantTime {
		t.Errorf("NewCipherConstantTime's paths %+v are not all constant-time", ct)
	}
	if !def.Single.ConstantTime && !strings.Contains(got, "constant time: no, ") {
		t.Errorf("shapes() = %q with the table kernel %s for single blocks", got, def.Single.Impl)
	}
}

// TestInfoJSONCPU checks the CPU facts in info -json.
func TestInfoJSONCPU(t *testing.T) {
	status, stdout, stderr := runTool(t, "info", "-json")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish info -json: exit status %d, stderr:\n%s", status, stderr)
	}
	var got infoJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	f := cpu.HostFacts()
	if got.Vendor != f.Vendor || got.Family != hexNumber(f.Family) || got.Model != hexNumber(f.Model) ||
		got.GDS != cpu.ReadGDS() || got.GODEBUG != f.GODEBUG || !slices.Equal(got.Features, f.Features()) && len(f.Features()) > 0 {
		t.Errorf("got vendor %q family %q model %q features %q GDS %q, want %+v, %q", got.Vendor, got.Family, got.Model, got.Features, got.GDS, f, f.Features())
	}
	if got.Features == nil {
		t.Errorf("features is null, want a list")
	}
	host := cpu.Host().All()
	if len(got.Choices) != len(host) {
		t.Fatalf("%d choices, want %d", len(got.Choices), len(host))
	}
	for i, c := range host {
		g := got.Choices[i]
		if g.Part != c.Part || g.Chosen != c.Name || g.Reason != c.Reason || len(g.Options) != len(c.Options) {
			t.Errorf("choice %d: %+v, want %+v", i, g, c)
		}
	}
}

func TestHexNumber(t *testing.T) {
	for n, want := range map[int]string{0: "0x0", 6: "0x6", 0x1a: "0x1a", 0x5e: "0x5e"} {
		if got := hexNumber(n); got != want {
			t.Errorf("hexNumber(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestInfoWriteFails checks that info, as text and as JSON, exits with
// status 1 and says why when its output cannot be written, wherever the
// write fails: at the start, in the table, or in the last lines.
func TestInfoWriteFails(t *testing.T) {
	for _, args := range [][]string{{"info"}, {"info", "-json"}} {
		_, full, _ := runTool(t, args...)
		for _, cut := range []int{0, len(full) / 2, len(full) - 1} {
			var stderr strings.Builder
			status := run(args, &failingWriter{n: cut}, &stderr)
			if status != exitFailure || !strings.Contains(stderr.String(), "twofish info: writing the output: disk full") {
				t.Errorf("%q with the output failing after %d of %d bytes: status %d, stderr %q", args, cut, len(full), status, stderr.String())
			}
		}
	}
}

// TestShapesConstantTime checks the constant-time line for paths that are
// all constant-time, for one table kernel serving two shapes (named once),
// and for two, and that a crossover of 0 blocks (no short runs of their
// own) and a fused crossover at or below nothing are not mentioned.
func TestShapesConstantTime(t *testing.T) {
	ctPath := twofish.Path{Impl: "generic-ct", ConstantTime: true}
	ct := twofish.Paths{Single: ctPath, Short: ctPath, Bulk: ctPath}
	for _, tc := range []struct {
		def  twofish.Paths
		want string
	}{
		{ct, "NewCipher: long runs generic-ct, short runs generic-ct, single blocks generic-ct\n" +
			"constant time: yes, every shape and mode (no secret-dependent memory access or branch)\n"},
		{twofish.Paths{Single: twofish.Path{Impl: "generic"}, Short: twofish.Path{Impl: "generic"}, Bulk: twofish.Path{Impl: "avx2-ct", ConstantTime: true}, ShortBelow: 3},
			"NewCipher: long runs avx2-ct, runs under 3 blocks generic, single blocks generic\n" +
				"constant time: no, generic indexes key-dependent tables; NewCipherConstantTime uses generic-ct for every shape\n"},
		{twofish.Paths{Single: twofish.Path{Impl: "amd64-1way"}, Short: twofish.Path{Impl: "amd64-3way"}, Bulk: twofish.Path{Impl: "avx512-vbmi", ConstantTime: true}, ShortBelow: 7, FusedFrom: 7},
			"NewCipher: long runs avx512-vbmi, runs under 7 blocks amd64-3way, single blocks amd64-1way\n" +
				"constant time: no, amd64-3way, amd64-1way index key-dependent tables; NewCipherConstantTime uses generic-ct for every shape\n"},
		{twofish.Paths{Single: twofish.Path{Impl: "amd64-1way"}, Short: twofish.Path{Impl: "amd64-3way"}, Bulk: twofish.Path{Impl: "avx512-vbmi", ConstantTime: true}, ShortBelow: 7},
			"NewCipher: long runs avx512-vbmi, runs under 7 blocks amd64-3way, single blocks amd64-1way\n" +
				"constant time: no, amd64-3way, amd64-1way index key-dependent tables; NewCipherConstantTime uses generic-ct for every shape\n"},
	} {
		if got := shapesOf(tc.def, ct); got != tc.want {
			t.Errorf("shapesOf(%+v) =\n%q, want\n%q", tc.def, got, tc.want)
		}
	}
}

// TestAllConstantTime checks that NewCipher counts as constant-time only
// where each of its three paths is.
func TestAllConstantTime(t *testing.T) {
	yes := twofish.Path{Impl: "generic-ct", ConstantTime: true}
	no := twofish.Path{Impl: "generic"}
	if !allConstantTime(twofish.Paths{Single: yes, Short: yes, Bulk: yes}) {
		t.Error("three constant-time paths: not constant-time")
	}
	for _, p := range []twofish.Paths{{Single: no, Short: yes, Bulk: yes}, {Single: yes, Short: no, Bulk: yes}, {Single: yes, Short: yes, Bulk: no}} {
		if allConstantTime(p) {
			t.Errorf("%+v: constant-time", p)
		}
	}
}

// TestToPathsJSON checks that each path and crossover keeps its name.
func TestToPathsJSON(t *testing.T) {
	p := twofish.Paths{Single: twofish.Path{Impl: "a"}, Short: twofish.Path{Impl: "b"}, Bulk: twofish.Path{Impl: "c", ConstantTime: true}, ShortBelow: 7, FusedFrom: 5}
	want := pathsJSON{pathJSON{"a", false}, pathJSON{"b", false}, pathJSON{"c", true}, 7, 5}
	if got := toPathsJSON(p); got != want {
		t.Errorf("toPathsJSON(%+v) = %+v, want %+v", p, got, want)
	}
}

// TestInfoJSONPaths checks that info -json gives NewCipher's paths as
// "paths", NewCipherConstantTime's as "constant_time_paths", and whether
// NewCipher is constant-time.
func TestInfoJSONPaths(t *testing.T) {
	_, stdout, _ := runTool(t, "info", "-json")
	var got infoJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 16)
	c, _ := twofish.NewCipher(key)
	cct, _ := twofish.NewCipherConstantTime(key)
	if want := toPathsJSON(c.Paths()); got.Paths != want {
		t.Errorf("paths %+v, want %+v", got.Paths, want)
	}
	if want := toPathsJSON(cct.Paths()); got.ConstantTimePaths != want {
		t.Errorf("constant_time_paths %+v, want %+v", got.ConstantTimePaths, want)
	}
	if got.ConstantTime != c.ConstantTime() {
		t.Errorf("selected_constant_time %v, want %v", got.ConstantTime, c.ConstantTime())
	}
}

// choicesExample is a choice with an option this CPU runs and one it
// does not.
var choicesExample = []cpu.Choice{{Part: "ghash", Name: "pclmulqdq", Reason: "the widest", Options: []cpu.Option{
	{Name: "avx2-vpclmulqdq", Supported: false}, {Name: "pclmulqdq", Supported: true}, {Name: "generic", Supported: true}}}}

// TestChoicesMarkUnsupported checks that the choices lines mark with "-"
// the options this CPU does not run, and that the JSON keeps which it runs.
func TestChoicesMarkUnsupported(t *testing.T) {
	if got, want := choices(choicesExample), "ghash: pclmulqdq (of -avx2-vpclmulqdq pclmulqdq generic): the widest\n"; got != want {
		t.Errorf("choices = %q, want %q", got, want)
	}
	want := []choiceJSON{{Part: "ghash", Chosen: "pclmulqdq", Reason: "the widest", Options: []optionJSON{{"avx2-vpclmulqdq", false}, {"pclmulqdq", true}, {"generic", true}}}}
	if got := choicesJSON(choicesExample); !reflect.DeepEqual(got, want) {
		t.Errorf("choicesJSON = %+v, want %+v", got, want)
	}
}
