// Command gen writes the gzip-compressed copies of the Twofish test files
// that package kat embeds. Run it with "go generate" in internal/kat:
//
//	go run ./gen -src ../../testdata -dst vectors
//
// The output depends only on the input and the Go release's compress/flate
// (no time stamps), so regenerating and diffing checks that the copies are
// current.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	src := flag.String("src", "../../testdata", "directory holding the .TXT files")
	dst := flag.String("dst", "vectors", "directory to write the .TXT.gz files to")
	flag.Parse()
	// Every .TXT file: the generator does not import package kat, which
	// cannot build before its embedded files exist; kat's tests check that
	// the files here are the ones it lists.
	names, err := filepath.Glob(filepath.Join(*src, "*.TXT"))
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("no .TXT files in %s", *src)
	}
	for _, name := range names {
		if err == nil {
			err = compress(name, filepath.Join(*dst, filepath.Base(name)+".gz"))
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// compress writes the gzip compression of the file src to dst.
func compress(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Name = filepath.Base(src)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(dst, b.Bytes(), 0o644)
}
