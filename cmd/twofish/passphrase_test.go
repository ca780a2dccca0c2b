package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptPassphraseNoTerminal checks that a prompt whose input is not a
// terminal (a file) says how else to give the secret, before it prompts.
func TestPromptPassphraseNoTerminal(t *testing.T) {
	name := filepath.Join(t.TempDir(), "typed")
	writeFile(t, name, []byte("open sesame\n"))
	in, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	outName := filepath.Join(t.TempDir(), "screen")
	out, err := os.Create(outName)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	p, err := promptPassphrase(in, out, true)
	if err == nil || !strings.HasPrefix(err.Error(), "no passphrase: give -passphrase-file") || p != nil {
		t.Errorf("promptPassphrase from a file: %q, %v", p, err)
	}
	if screen := readFile(t, outName); len(screen) != 0 {
		t.Errorf("prompted %q", screen)
	}
}
