package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The written rule, applied to each memcheck report by the first stack of
// it (where the error happened) and, for an uninitialised value, the
// stack of its origin (--track-origins=yes):
//
//  1. A report with no frame of this module's packages (by function name,
//     or by source file for code inlined into another package) is the Go
//     runtime's own: not counted.
//  2. A report with no frame of a check function (checkFuncs) happened
//     where no secret exists (package initialisation): not counted, unless
//     memcheck traces its value to the secret: then a check that this
//     list lacks ran it, and it is a finding (rule 8).
//  3. A report whose innermost frame is the allocator's bookkeeping
//     (allocatorFuncs), on a value that is not a secret, is on the
//     runtime's own memory: not counted. A secret is a value memcheck
//     traces to ctgrind's marking (secretFunc).
//  4. A report under a control function is the negative control's: each
//     control function that the run ran (the run names them) must have at
//     least one traced to the secret, or the check could not see a table
//     look-up. (Memcheck loses the origin
//     of some values that pass through vector registers: the control's
//     reports without one are not counted.)
//  5. An uninitialised value without an origin is a finding: it may be a
//     secret.
//  6. Any other report on a value that is not a secret (an invalid
//     access, or an uninitialised value of another origin) means that
//     memcheck lost the state of memory the checks use: valgrind takes a
//     switch between a goroutine stack and a thread's g0 stack in the Go
//     heap, which the runtime does not register, for a large stack frame,
//     and marks the memory between the two stack pointers inaccessible or
//     undefined (go.dev/issue/73801). Secrets there may have been lost,
//     so the run is inconclusive, and tools/ctgrind.sh runs it again.
//  7. A conditional jump on a secret whose innermost frame is an AEAD's
//     Open itself, at a line of source marked with verdictMark, is the
//     branch on the verdict of the tag comparison, public by design: Open
//     returns it. A branch on a secret elsewhere in Open (on the
//     plaintext, say) is a finding, and so is a report inside the
//     comparison, or in any function Open calls, inlined or not, which
//     has that function as its innermost frame. A line whose source
//     cannot be read counts as unmarked.
//  8. Every other report is a finding: a secret-dependent branch or
//     address. It fails the check.

// modulePath is the module whose frames count.
const modulePath = "github.com/twofish-go/twofish"

// secretFunc is the function that marks secrets undefined.
const secretFunc = "main.secret"

// checkFuncs are the functions of the checks (run_valgrind.go), and
// controlFuncs those of the negative control among them.
var (
	controlFuncs = []string{"main.controlBlock", "main.controlKey"}
	checkFuncs   = append([]string{"main.checkConstantTime", "main.checkKeySchedule", "main.checkSlicedSchedule"}, controlFuncs...)
)

// allocatorFuncs match the innermost frames of the runtime allocator's
// bookkeeping.
var allocatorFuncs = regexp.MustCompile(`^runtime\.(mallocgc|nextFreeFast|heapSetType|\(\*(mspan|mcache|mcentral|mheap)\)\.)`)

// verdictFunc matches the Open methods of the root package's AEADs.
var verdictFunc = regexp.MustCompile(`^` + regexp.QuoteMeta(modulePath) + `\.\(\*[a-z]\w*\)\.Open$`)

// verdictMark marks, in a comment, the line of each Open that branches on
// the verdict of its tag comparison.
const verdictMark = "// ctgrind: the verdict"

// markedVerdict reports whether the source line of f carries verdictMark.
func markedVerdict(f frame) bool {
	if f.File == "" || f.Line < 1 {
		return false
	}
	data, err := os.ReadFile(filepath.Join(f.Dir, f.File))
	if err != nil {
		return false
	}
	lines := strings.Split(string(data), "\n")
	return f.Line <= len(lines) && strings.Contains(lines[f.Line-1], verdictMark)
}

// valgrindOutput is the part of valgrind's XML output (protocol 4) that
// the rule reads.
type valgrindOutput struct {
	XMLName xml.Name `xml:"valgrindoutput"`
	Tool    string   `xml:"protocoltool"`
	Status  []string `xml:"status>state"`
	Errors  []report `xml:"error"`
	Counts  []struct {
		Count  int    `xml:"count"`
		Unique string `xml:"unique"`
	} `xml:"errorcounts>pair"`
}

type report struct {
	Unique  string   `xml:"unique"`
	Kind    string   `xml:"kind"`
	What    string   `xml:"what"`
	XWhat   string   `xml:"xwhat>text"`
	AuxWhat []string `xml:"auxwhat"`
	Stacks  []stack  `xml:"stack"`
}

type stack struct {
	Frames []frame `xml:"frame"`
}

type frame struct {
	Fn   string `xml:"fn"`
	Dir  string `xml:"dir"`
	File string `xml:"file"`
	Line int    `xml:"line"`
}

func (f frame) String() string {
	if f.File == "" {
		return f.Fn
	}
	return fmt.Sprintf("%s (%s:%d)", f.Fn, relPath(filepath.Join(f.Dir, f.File)), f.Line)
}

// relPath returns file relative to the working directory where it is
// below it.
func relPath(file string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return file
}

func (r report) what() string {
	if r.What != "" {
		return r.What
	}
	return r.XWhat
}

func (r report) frames() []frame {
	if len(r.Stacks) == 0 {
		return nil
	}
	return r.Stacks[0].Frames
}

// origin returns the stack where memcheck says r's uninitialised value was
// created, and whether r has one.
func (r report) origin() ([]frame, bool) {
	for _, a := range r.AuxWhat {
		if strings.HasPrefix(a, "Uninitialised value was created") && len(r.Stacks) > 1 {
			return r.Stacks[1].Frames, true
		}
	}
	return nil, false
}

func (r report) uninitialised() bool {
	_, ok := r.origin()
	return ok || r.Kind == "UninitValue" || r.Kind == "UninitCondition"
}

// A classifier applies the rule; root is the module's directory, "" if
// unknown, for frames of module code inlined into other packages.
type classifier struct {
	root string
	// controls are the control functions that the run ran: those whose
	// reports check requires.
	controls []string
}

func (c classifier) inModule(f frame) bool {
	if strings.HasPrefix(f.Fn, modulePath+".") || strings.HasPrefix(f.Fn, modulePath+"/") {
		return true
	}
	if c.root == "" || f.Dir == "" || !strings.HasSuffix(f.File, ".go") {
		return false
	}
	rel, err := filepath.Rel(c.root, f.Dir)
	return err == nil && !strings.HasPrefix(rel, "..") && rel != filepath.Join("tools", "ctgrind")
}

// The classes of reports.
const (
	outsideModule = "outside the module"
	outsideChecks = "outside the checks"
	runtimeMemory = "on the allocator's own memory"
	control       = "of the negative control"
	controlOther  = "of the negative control, not traced to its secret"
	verdict       = "on Open's verdict"
	noOrigin      = "without an origin"
	disturbed     = "on memory whose state valgrind lost"
	finding       = "findings"
)

// classify returns the class of r, and for the control the control
// function it ran under.
func (c classifier) classify(r report) (class, controlFunc string) {
	fs := r.frames()
	if len(fs) == 0 {
		return finding, ""
	}
	if !slices.ContainsFunc(fs, c.inModule) {
		return outsideModule, ""
	}
	origin, hasOrigin := r.origin()
	secret := slices.ContainsFunc(origin, func(f frame) bool { return f.Fn == secretFunc })
	i := slices.IndexFunc(fs, func(f frame) bool { return slices.Contains(checkFuncs, f.Fn) })
	switch {
	case i < 0 && secret:
		return finding, ""
	case i < 0:
		return outsideChecks, ""
	}
	check := fs[i].Fn
	switch uninit := r.uninitialised(); {
	case (uninit && hasOrigin && !secret || !uninit) && allocatorFuncs.MatchString(fs[0].Fn):
		return runtimeMemory, ""
	case slices.Contains(controlFuncs, check) && uninit && secret:
		return control, check
	case slices.Contains(controlFuncs, check):
		return controlOther, ""
	case uninit && !hasOrigin:
		return noOrigin, ""
	case uninit && !secret, !uninit:
		return disturbed, ""
	case r.Kind == "UninitCondition" && verdictFunc.MatchString(fs[0].Fn) && markedVerdict(fs[0]):
		return verdict, ""
	}
	return finding, ""
}

// moduleRoot returns the directory of the go.mod above the working
// directory, "" if there is none.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// The results of a check, and the exit statuses of "ctgrind classify".
const (
	pass         = 0
	fail         = 1
	inconclusive = 3
)

// classifyFile checks the valgrind XML output in the file name of a run
// that ran the control functions controls.
func classifyFile(name string, controls []string) int {
	for _, cf := range controls {
		if !slices.Contains(controlFuncs, cf) {
			fmt.Fprintf(os.Stderr, "ctgrind: FAIL: %s is no control function (%s)\n", cf, strings.Join(controlFuncs, ", "))
			return fail
		}
	}
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ctgrind: FAIL:", err)
		return fail
	}
	defer f.Close()
	return (classifier{moduleRoot(), controls}).check(f, os.Stdout)
}

// check reads valgrind's XML output from r, prints the reports that count
// and a summary of the others to w, and returns pass, fail, or
// inconclusive where it found nothing but memcheck lost track of memory
// the checks used.
func (c classifier) check(r io.Reader, w io.Writer) int {
	var out valgrindOutput
	if err := xml.NewDecoder(r).Decode(&out); err != nil {
		fmt.Fprintln(w, "ctgrind: FAIL: valgrind's XML output:", err)
		return fail
	}
	result := pass
	failed := func(format string, args ...any) {
		fmt.Fprintf(w, "ctgrind: FAIL: "+format+"\n", args...)
		result = fail
	}
	if out.Tool != "memcheck" {
		failed("the XML output is %q's, not memcheck's", out.Tool)
	}
	if !slices.Contains(out.Status, "FINISHED") {
		failed("valgrind did not finish the run (status %v)", out.Status)
	}
	counts := map[string]int{}
	for _, p := range out.Counts {
		counts[p.Unique] = p.Count
	}
	byClass := map[string]int{}
	controls := map[string]map[string]bool{} // control function -> innermost module functions
	shown := 0
	for _, r := range out.Errors {
		n := max(counts[r.Unique], 1)
		class, cf := c.classify(r)
		byClass[class] += n
		fs := r.frames()
		var head string
		switch class {
		case control:
			if controls[cf] == nil {
				controls[cf] = map[string]bool{}
			}
			if i := slices.IndexFunc(fs, c.inModule); i >= 0 {
				controls[cf][strings.TrimPrefix(fs[i].Fn, modulePath)] = true
			}
		case verdict:
			fmt.Fprintf(w, "ctgrind: public by design (Open's verdict), %dx: %s at %s\n", n, r.what(), fs[0])
		case finding:
			head = "FINDING"
		case noOrigin:
			head = "FINDING (memcheck traced no origin)"
		case disturbed:
			if shown++; shown <= 5 {
				head = "memory state lost"
			}
		}
		if head == "" {
			continue
		}
		fmt.Fprintf(w, "ctgrind: %s, %dx: %s (%s)\n", head, n, r.what(), r.Kind)
		if len(fs) == 0 {
			fmt.Fprintln(w, "        (no stack)")
		}
		for i, f := range fs {
			if i == 0 || c.inModule(f) || slices.Contains(checkFuncs, f.Fn) {
				fmt.Fprintln(w, "        at", f)
			}
		}
	}
	fmt.Fprintf(w, "ctgrind: memcheck reports: %d findings, %d of the negative control, %d on Open's verdict, %d on memory whose state memcheck lost; "+
		"not counted: %d outside the module, %d outside the checks, %d on the allocator's own memory, %d of the negative control not traced to its secret\n",
		byClass[finding]+byClass[noOrigin], byClass[control], byClass[verdict], byClass[disturbed],
		byClass[outsideModule], byClass[outsideChecks], byClass[runtimeMemory], byClass[controlOther])
	if byClass[finding]+byClass[noOrigin] > 0 {
		failed("memcheck reported secret-dependent branches or addresses in the constant-time paths")
	}
	if len(c.controls) == 0 {
		failed("the run named no negative control")
	}
	for _, cf := range c.controls {
		if len(controls[cf]) == 0 {
			failed("negative control %s: memcheck reported nothing, so the check cannot see table look-ups", cf)
			continue
		}
		fns := make([]string, 0, len(controls[cf]))
		for fn := range controls[cf] {
			fns = append(fns, fn)
		}
		slices.Sort(fns)
		fmt.Fprintf(w, "ctgrind: negative control %s reported, in %s\n", cf, strings.Join(fns, ", "))
	}
	if result == pass && byClass[disturbed] > 0 {
		fmt.Fprintln(w, "ctgrind: INCONCLUSIVE: memcheck lost the state of memory the checks used (the Go runtime describes its stacks to valgrind only in part), so it may have lost secrets too")
		result = inconclusive
	}
	return result
}
