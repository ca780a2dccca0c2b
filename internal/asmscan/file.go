package asmscan

import (
	"os"
	"testing"
)

// CheckFile holds the Go assembly file name to the rule: it reports a
// function of want that the file lacks, and every problem of each function,
// under the rules that rules gives for its name.
func CheckFile(t testing.TB, name string, want []string, rules func(fn string) Rules) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	funcs := Functions(string(data))
	for _, fn := range want {
		if funcs[fn] == nil {
			t.Errorf("%s has no function %s", name, fn)
		}
	}
	for fn, lines := range funcs {
		for _, p := range Problems(lines, rules(fn)) {
			t.Errorf("%s: %s: %s", name, fn, p)
		}
	}
}
