package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The rule of classify.go on synthetic reports in valgrind's XML format; the
// check itself runs under valgrind (tools/ctgrind.sh).

// xmlFrame writes a frame of function fn, with a source file in dir.
func xmlFrame(fn, dir string) string {
	return fmt.Sprintf("<frame><ip>0x1</ip><fn>%s</fn><dir>%s</dir><file>x.go</file><line>7</line></frame>", fn, dir)
}

// xmlError writes an error of kind with the stack fns (innermost first)
// and, unless origin is nil, the stack of its origin.
func xmlError(kind string, fns []string, origin []string) string {
	return xmlErrorIn("/elsewhere", kind, fns, origin)
}

// xmlErrorIn is xmlError with the source file of the stack's frames in dir.
func xmlErrorIn(dir, kind string, fns []string, origin []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<error><unique>0x%x</unique><kind>%s</kind><what>w</what><stack>", len(fns)*1000+len(origin), kind)
	for _, fn := range fns {
		b.WriteString(xmlFrame(fn, dir))
	}
	b.WriteString("</stack>")
	if origin != nil {
		b.WriteString("<auxwhat>Uninitialised value was created by a client request</auxwhat><stack>")
		for _, fn := range origin {
			b.WriteString(xmlFrame(fn, "/elsewhere"))
		}
		b.WriteString("</stack>")
	}
	b.WriteString("</error>")
	return b.String()
}

const (
	kernelFn = modulePath + "/internal/kernel.encryptBlocks1x.abi0"
	openFn   = modulePath + ".(*gcm).Open"
)

var secretOrigin = []string{"main.clientRequest.abi0", "main.request", secretFunc, "main.secretCopy"}

// sourceDir returns a directory with the file x.go of xmlFrame, whose
// line 7 is line7.
func sourceDir(t *testing.T, line7 string) string {
	dir := t.TempDir()
	src := "package twofish\n\n\n\n\n\n" + line7 + "\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestClassify(t *testing.T) {
	c := classifier{root: "/mod"}
	marked := sourceDir(t, "\tif subtle.ConstantTimeCompare(want, tag) != 1 { "+verdictMark)
	unmarked := sourceDir(t, "\tif out[0]&1 == 1 {")
	openStack := []string{openFn, "main.modePaths", "main.checkConstantTime"}
	tests := []struct {
		name   string
		report string
		want   string
	}{
		{"runtime only", xmlError("UninitCondition", []string{"runtime.lock2", "runtime.main"}, []string{"runtime.malg"}), outsideModule},
		{"package init", xmlError("InvalidRead", []string{modulePath + "/internal/cpu.ReadGDS", "runtime.doInit1"}, nil), outsideChecks},
		{"secret in a check not listed", xmlError("UninitValue", []string{kernelFn, "main.checkUnlisted"}, secretOrigin), finding},
		{"secret in a kernel", xmlError("UninitValue", []string{kernelFn, "main.checkConstantTime"}, secretOrigin), finding},
		{"secret in the runtime, called by the module", xmlError("UninitCondition", []string{"runtime.memmove", modulePath + ".(*gcm).Seal", "main.checkConstantTime"}, secretOrigin), finding},
		{"no origin", xmlError("UninitValue", []string{kernelFn, "main.checkConstantTime"}, nil), noOrigin},
		{"allocator's own uninitialised memory", xmlError("UninitValue", []string{"runtime.mallocgcSmallScanNoHeader", modulePath + ".NewOFB", "main.checkConstantTime"}, []string{"runtime.systemstack.abi0"}), runtimeMemory},
		{"allocator's invalid access", xmlError("InvalidWrite", []string{"runtime.(*mspan).writeHeapBitsSmall", modulePath + ".NewOFB", "main.checkConstantTime"}, nil), runtimeMemory},
		{"invalid access in the module", xmlError("InvalidRead", []string{kernelFn, "main.checkConstantTime"}, nil), disturbed},
		{"invalid access in memmove", xmlError("InvalidRead", []string{"runtime.memmove", kernelFn, "main.checkConstantTime"}, nil), disturbed},
		{"uninitialised stack in the module", xmlError("UninitValue", []string{kernelFn, "main.checkConstantTime"}, []string{"runtime.systemstack.abi0"}), disturbed},
		{"Open's verdict", xmlErrorIn(marked, "UninitCondition", openStack, secretOrigin), verdict},
		{"a branch elsewhere in Open", xmlErrorIn(unmarked, "UninitCondition", openStack, secretOrigin), finding},
		{"a branch in Open, source unread", xmlError("UninitCondition", openStack, secretOrigin), finding},
		{"address in Open", xmlError("UninitValue", []string{openFn, "main.modePaths", "main.checkConstantTime"}, secretOrigin), finding},
		{"inside the tag comparison", xmlError("UninitCondition", []string{"crypto/subtle.ConstantTimeCompare", openFn, "main.checkConstantTime"}, secretOrigin), finding},
		{"control", xmlError("UninitValue", []string{kernelFn, "main.controlBlock"}, secretOrigin), control},
		{"control, no origin", xmlError("UninitValue", []string{kernelFn, "main.controlKey"}, nil), controlOther},
	}
	for _, tt := range tests {
		var out valgrindOutput
		if err := decode(wrap(tt.report), &out); err != nil {
			t.Fatal(err)
		}
		if got, _ := c.classify(out.Errors[0]); got != tt.want {
			t.Errorf("%s: class %q, want %q", tt.name, got, tt.want)
		}
	}
	// Module code inlined into the program shows as a frame of the program
	// with a source file of the module.
	inlined := report{Kind: "UninitValue", Stacks: []stack{
		{[]frame{{Fn: "main.modePaths", Dir: "/mod", File: "ofb.go"}, {Fn: "main.checkConstantTime", Dir: "/mod/tools/ctgrind", File: "run_valgrind.go"}}},
		{[]frame{{Fn: secretFunc}}},
	}, AuxWhat: []string{"Uninitialised value was created by a client request"}}
	if got, _ := c.classify(inlined); got != finding {
		t.Errorf("module code inlined into the program: class %q, want %q", got, finding)
	}
}

func wrap(errors ...string) string {
	return "<?xml version=\"1.0\"?><valgrindoutput><protocolversion>4</protocolversion><protocoltool>memcheck</protocoltool>" +
		"<status><state>RUNNING</state></status>" + strings.Join(errors, "") + "<status><state>FINISHED</state></status></valgrindoutput>"
}

func decode(s string, out *valgrindOutput) error {
	return xml.NewDecoder(strings.NewReader(s)).Decode(out)
}

func TestCheck(t *testing.T) {
	c := classifier{controls: controlFuncs}
	controlBlock := xmlError("UninitValue", []string{kernelFn, "main.controlBlock"}, secretOrigin)
	controlKey := xmlError("UninitValue", []string{modulePath + "/internal/kernel.h", "main.controlKey"}, secretOrigin)
	leak := xmlError("UninitValue", []string{kernelFn, "main.checkConstantTime"}, secretOrigin)
	lost := xmlError("InvalidRead", []string{kernelFn, "main.checkConstantTime"}, nil)
	tests := []struct {
		name     string
		xml      string
		want     int
		controls []string // the controls of the run, if not all
	}{
		{"clean, with the control", wrap(controlBlock, controlKey), pass, nil},
		{"a finding", wrap(controlBlock, controlKey, leak), fail, nil},
		{"memory state lost", wrap(controlBlock, controlKey, lost), inconclusive, nil},
		{"a finding and memory state lost", wrap(controlBlock, controlKey, lost, leak), fail, nil},
		{"no control", wrap(), fail, nil},
		{"half the control", wrap(controlBlock), fail, nil},
		{"the control the run ran", wrap(controlBlock), pass, []string{"main.controlBlock"}},
		{"no control run", wrap(controlBlock, controlKey), fail, []string{}},
		{"unfinished", strings.Replace(wrap(controlBlock, controlKey), "FINISHED", "RUNNING", 1), fail, nil},
		{"not XML", "valgrind: failed to start", fail, nil},
	}
	for _, tt := range tests {
		var w strings.Builder
		c := c
		if tt.controls != nil {
			c.controls = tt.controls
		}
		if got := c.check(strings.NewReader(tt.xml), &w); got != tt.want {
			t.Errorf("%s: check = %v, want %v; output:\n%s", tt.name, got, tt.want, w.String())
		}
	}
}

// TestVerdictLines holds each line that verdictMark marks to the one
// branch it may carry: the branch on the tag comparison's verdict alone,
// with nothing else (another condition, on the plaintext say) that the
// mark would let through rule 7 unreported. There must be one in each
// AEAD's Open.
func TestVerdictLines(t *testing.T) {
	verdict := regexp.MustCompile(`^\tif (subtle\.ConstantTimeCompare\([a-z]+\[:[a-zA-Z.]+\], tag\) != 1|!o\.open\([^&|]*\)) \{ ` + regexp.QuoteMeta(verdictMark) + `$`)
	for _, name := range []string{"gcm.go", "ocb.go", "eax.go"} {
		data, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		marked := 0
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.Contains(line, verdictMark) {
				continue
			}
			marked++
			if !verdict.MatchString(line) {
				t.Errorf("%s:%d: the verdict's mark on a line that is not the verdict's branch alone: %q", name, i+1, line)
			}
		}
		if marked != 1 {
			t.Errorf("%s: %d lines carry the verdict's mark, want 1", name, marked)
		}
	}
}
