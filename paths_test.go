package twofish

import (
	"bytes"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
	"github.com/twofish-go/twofish/internal/kernel"
)

// TestPaths checks what Paths says of the default, constant-time, pinned
// and keyless ciphers: the default's long runs are Implementation's, the
// constant-time cipher's every path is constant-time, a pinned one runs
// its implementation's family for every shape, and ConstantTime agrees.
func TestPaths(t *testing.T) {
	key := make([]byte, 16)
	def, _ := NewCipher(key)
	p := def.Paths()
	if name, _ := AutoImplementation(); p.Bulk.Impl != name || def.Implementation() != name {
		t.Errorf("NewCipher's long runs take %s, Implementation %s, AutoImplementation %s", p.Bulk.Impl, def.Implementation(), name)
	}
	if all := p.Single.ConstantTime && p.Short.ConstantTime && p.Bulk.ConstantTime; all != def.ConstantTime() {
		t.Errorf("NewCipher: paths %+v, ConstantTime() = %v", p, def.ConstantTime())
	}
	ct, _ := NewCipherConstantTime(key)
	if cp := ct.Paths(); !cp.Single.ConstantTime || !cp.Short.ConstantTime || !cp.Bulk.ConstantTime || cp.ShortBelow != 0 {
		t.Errorf("NewCipherConstantTime: paths %+v", cp)
	}
	for _, impl := range Implementations() {
		if !impl.Supported {
			continue
		}
		pp := mustCipher(t, key, impl.Name).Paths()
		if pp.Bulk.Impl != impl.Name || pp.Short.Impl != impl.Name || pp.ShortBelow != 0 || pp.Bulk.ConstantTime != impl.ConstantTime {
			t.Errorf("NewCipherImpl(%s): paths %+v", impl.Name, pp)
		}
		if impl.Blocks == 1 && pp.Single.Impl != impl.Name {
			t.Errorf("NewCipherImpl(%s): single blocks go to %s", impl.Name, pp.Single.Impl)
		}
		if impl.ConstantTime && !pp.Single.ConstantTime {
			t.Errorf("NewCipherImpl(%s): single blocks go to the table kernel %s", impl.Name, pp.Single.Impl)
		}
	}
	if (new(Cipher).Paths() != Paths{}) {
		t.Errorf("a Cipher without a key has paths %+v", new(Cipher).Paths())
	}
}

// TestPathsFusedFrom checks Paths.FusedFrom against what the modes do: on
// a Cipher whose bulk kernels fuse modes, CTR and CFB decryption give a
// run of FusedFrom blocks to the fused kernels and leave one a block
// shorter to the plan's ladder; on one whose kernels fuse nothing,
// FusedFrom is 0.
func TestPathsFusedFrom(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 32)
	def, _ := NewCipher(key)
	ct, _ := NewCipherConstantTime(key)
	ciphers := map[string]*Cipher{"NewCipher": def, "NewCipherConstantTime": ct}
	for _, impl := range Implementations() {
		if impl.Supported {
			ciphers[impl.Name] = mustCipher(t, key, impl.Name)
		}
	}
	for name, c := range ciphers {
		from := c.Paths().FusedFrom
		if from == 0 {
			if c.k.Fused() {
				t.Errorf("%s: FusedFrom 0, but its kernels fuse modes", name)
			}
			continue
		}
		iv := randBytes(r, BlockSize)
		for _, n := range []int{from, from - 1} {
			src := randBytes(r, n*BlockSize)
			dst := make([]byte, len(src))
			want := 0
			if n == from {
				want = len(src)
			}
			if got := NewCTR(c, iv).(*stream).fused(dst, src); got != want {
				t.Errorf("%s: CTR of %d blocks: the fused kernels took %d bytes, want %d (FusedFrom %d)", name, n, got, want, from)
			}
			if got := NewCFBDecrypter(c, iv).(*cfb).fused(dst, src); got != want {
				t.Errorf("%s: CFB decryption of %d blocks: the fused kernels took %d bytes, want %d (FusedFrom %d)", name, n, got, want, from)
			}
		}
	}
}

// TestDefaultCiphers runs the ciphers of NewCipher and
// NewCipherConstantTime, whose paths mix kernels, against generic in every
// mode, for messages around the crossover from short to long runs and
// around the long-run kernel's groups, and checks that messages of up to
// 1504 bytes (a group and a padded rest, which go through a buffer on the
// stack together) allocate nothing, and a mode made for one message only
// itself.
func TestDefaultCiphers(t *testing.T) {
	r := testRand(t)
	for _, ks := range keySizes {
		key := randBytes(r, ks)
		def, _ := NewCipher(key)
		ct, _ := NewCipherConstantTime(key)
		ref := mustCipher(t, key, "generic")
		for name, c := range map[string]*Cipher{"NewCipher": def, "NewCipherConstantTime": ct} {
			p := c.Paths()
			var lengths []int
			for n := range max(p.ShortBelow, 4) + 3 {
				lengths = append(lengths, n)
			}
			for _, impl := range Implementations() {
				if impl.Name == p.Bulk.Impl {
					for _, n := range []int{impl.Blocks - 1, impl.Blocks, impl.Blocks + p.ShortBelow - 1, impl.Blocks + p.ShortBelow, 2*impl.Blocks + 1} {
						lengths = append(lengths, max(n, 0))
					}
				}
			}
			iv := randBytes(r, BlockSize)
			for _, mc := range modeCases {
				for _, blocks := range lengths {
					n := blocks * BlockSize
					if !mc.blockMode {
						n += r.IntN(BlockSize)
					}
					src := randBytes(r, n)
					got, want := make([]byte, n), make([]byte, n)
					crypt(mc.ours(c, iv), got, src)
					crypt(mc.ours(ref, iv), want, src)
					if !bytes.Equal(got, want) {
						t.Fatalf("%d-bit %s, %s, %d bytes: differs from generic", 8*ks, name, mc.name, n)
					}
				}
			}
			if raceEnabled {
				continue
			}
			for _, n := range []int{16, 64, 1024, 1504} {
				buf := make([]byte, n)
				for _, mc := range modeCases {
					m := mc.ours(c, iv)
					if allocs := testing.AllocsPerRun(10, func() { crypt(m, buf, buf) }); allocs != 0 {
						t.Errorf("%s, %s of %d bytes allocates %v times per call", name, mc.name, n, allocs)
					}
				}
				// A stream for one message: only the stream itself is allocated.
				for _, mc := range modeCases {
					if allocs := testing.AllocsPerRun(10, func() { crypt(mc.ours(c, iv), buf, buf) }); allocs > 1 {
						t.Errorf("%s, a new %s for %d bytes allocates %v times", name, mc.name, n, allocs)
					}
				}
				for _, m := range aeadModes {
					a := mustAEAD(t, m, c, m.nonces[0], m.tags[0])
					nonce := make([]byte, a.NonceSize())
					out := make([]byte, 0, n+a.Overhead())
					if allocs := testing.AllocsPerRun(10, func() { a.Seal(out[:0], nonce, buf, nil) }); allocs != 0 {
						t.Errorf("%s, %s Seal of %d bytes allocates %v times per call", name, m.name, n, allocs)
					}
				}
			}
		}
	}
}

// TestOneMessageLeavesTablesOut checks NewCipher's promise where its
// Ciphers build the tables of their table kernels on use: a new key for
// one message of GCM, CTR or XTS, of any length, or of OCB with up to 32
// bytes of associated data, does not build them. (Longer associated data
// can: with OCB's setup blocks and the short runs at the end of the
// message, short runs of it pass what building the tables costs.)
func TestOneMessageLeavesTablesOut(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 32)
	if c, _ := NewCipher(key); !tablesLeftOut(c) {
		t.Skipf("NewCipher builds its tables with the key here (%s)", c.Implementation())
	}
	step := 7
	if exhaustive() {
		step = 1
	}
	newCipher := func() *Cipher { c, _ := NewCipher(key); return c }
	for n := 0; n <= 2*ocbBatch+3*BlockSize; n += step {
		msg := randBytes(r, n)
		nonce := randBytes(r, 12)
		for _, m := range aeadModes[:2] { // GCM, OCB
			ad := randBytes(r, r.IntN(33))
			if m.name == "GCM" {
				ad = randBytes(r, r.IntN(300))
			}
			c := newCipher()
			sealed := mustAEAD(t, m, c, 12, 16).Seal(nil, nonce, msg, ad)
			if !tablesLeftOut(c) {
				t.Fatalf("%s Seal of %d bytes, %d of associated data, built the tables", m.name, n, len(ad))
			}
			c = newCipher()
			if _, err := mustAEAD(t, m, c, 12, 16).Open(nil, nonce, sealed, ad); err != nil {
				t.Fatal(err)
			}
			if !tablesLeftOut(c) {
				t.Fatalf("%s Open of %d bytes, %d of associated data, built the tables", m.name, n, len(ad))
			}
		}
		c := newCipher()
		NewCTR(c, randBytes(r, BlockSize)).XORKeyStream(msg, msg)
		if !tablesLeftOut(c) {
			t.Fatalf("CTR of %d bytes built the tables", n)
		}
		if n >= BlockSize {
			for _, decrypt := range []bool{false, true} {
				x, _ := NewXTS(append(key, key...))
				if decrypt {
					x.Decrypt(msg, msg, 1)
				} else {
					x.Encrypt(msg, msg, 1)
				}
				if !tablesLeftOut(x.tweak) || !tablesLeftOut(x.data) {
					t.Fatalf("XTS of %d bytes (decrypt %v) built the tables", n, decrypt)
				}
			}
		}
	}
}

// TestPathsFollowPolicy checks that NewCipher's Paths name the CPU
// policy's choice for each shape, each where it serves: single blocks on
// the narrowest kernel of the single-block choice, runs under the short
// choice's crossover (ShortBelow) on that choice, longer ones on the block
// choice; and that each path's ConstantTime is its implementation's.
func TestPathsFollowPolicy(t *testing.T) {
	h := cpu.Host()
	c, err := NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Paths()
	want := map[string]string{
		"Single": kernel.Find(h.Single.Name).Narrowest().Name,
		"Short":  h.Short.Name,
		"Bulk":   h.Block.Name,
	}
	ct := map[string]bool{}
	for _, impl := range Implementations() {
		ct[impl.Name] = impl.ConstantTime
	}
	for shape, got := range map[string]Path{"Single": p.Single, "Short": p.Short, "Bulk": p.Bulk} {
		if got.Impl != want[shape] || got.ConstantTime != ct[got.Impl] {
			t.Errorf("%s: %+v, want %s, constant-time %v", shape, got, want[shape], ct[want[shape]])
		}
	}
	if p.ShortBelow != h.Short.Below {
		t.Errorf("ShortBelow = %d, want the policy's %d", p.ShortBelow, h.Short.Below)
	}
}
