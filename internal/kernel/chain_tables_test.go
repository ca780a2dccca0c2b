//go:build (amd64 || arm64) && gc && !purego

package kernel

import (
	"bytes"
	"testing"
)

// TestChainBuildsTables runs every chained mode through Chain on a Cipher
// whose tables are built on use (the single blocks of a table kernel with
// chain kernels, the bulk of a byte-sliced one), before anything has built
// them: Chain builds them and runs the chain kernel over them, as the mode
// a block at a time with generic does.
func TestChainBuildsTables(t *testing.T) {
	var single, bulk *Kernel
	for _, k := range All() {
		switch n := k.Narrowest(); {
		case !k.Supported || !n.Supported:
		case single == nil && n.layout() == tablesLayout && (n.Name == "amd64-1way" || n.Name == "arm64-1way"):
			single = n
		case bulk == nil && k.layout() == slicedLayout:
			bulk = k
		}
	}
	if single == nil || bulk == nil {
		t.Skip("this CPU runs no table kernel with chain kernels, or no byte-sliced kernel")
	}
	p := Plan{Single: single, Short: bulk, Bulk: bulk}
	r := testRand(t)
	for _, m := range chainModes {
		key := randBytes(r, 32)
		c, ref := newPlanCipher(p, key), newCipher(key, Generic)
		if c.t.Load() != nil {
			t.Fatalf("single blocks of %s, bulk of %s: tables built with the key, want on use", single.Name, bulk.Name)
		}
		const n = 3
		src := randBytes(r, n*BlockSize)
		var s, ws [BlockSize]byte
		copy(s[:], randBytes(r, BlockSize))
		ws = s
		want := make([]byte, n*BlockSize)
		chainByBlocks(ref, m, want, src, &ws, n)
		got := make([]byte, n*BlockSize)
		in, out := src, got
		switch m {
		case ChainOFB:
			in = nil
		case ChainMAC:
			out = nil
		}
		if !c.Chain(m, out, in, &s) {
			t.Fatalf("%v with %s's single blocks: Chain declined", m, single.Name)
		}
		if c.t.Load() == nil {
			t.Fatalf("%v with %s's single blocks: Chain ran without building the tables", m, single.Name)
		}
		if s != ws {
			t.Fatalf("%v with %s's single blocks: chain value %x, want %x", m, single.Name, s, ws)
		}
		if m != ChainMAC && !bytes.Equal(got, want) {
			t.Fatalf("%v with %s's single blocks: output differs from the mode a block at a time", m, single.Name)
		}
	}
}
