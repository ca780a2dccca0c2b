package twofish

import (
	"bytes"
	"testing"
)

// TestConstantTimeCipher checks NewCipherConstantTime and NewXTSConstantTime:
// only constant-time kernels, the fastest this CPU runs, whatever
// TWOFISH_IMPL says (TestImplEnvironment runs a child with it set), with
// the same results as the default cipher in every mode; and that
// ConstantTime tells the truth for every pinned implementation.
func TestConstantTimeCipher(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 32)
	ct, err := NewCipherConstantTime(key)
	if err != nil {
		t.Fatal(err)
	}
	if !ct.ConstantTime() {
		t.Fatalf("NewCipherConstantTime uses %s, which is not constant-time", ct.Implementation())
	}
	var fastest string
	for _, impl := range Implementations() {
		if impl.ConstantTime && impl.Supported && fastest == "" {
			fastest = impl.Name
		}
	}
	if ct.Implementation() != fastest {
		t.Errorf("NewCipherConstantTime uses %s, want the first constant-time implementation this CPU runs, %s", ct.Implementation(), fastest)
	}
	if _, err := NewCipherConstantTime(key[:5]); err != KeySizeError(5) {
		t.Errorf("5-byte key: error %v, want KeySizeError(5)", err)
	}

	ref := mustCipher(t, key, "generic")
	iv := randBytes(r, BlockSize)
	for _, mc := range modeCases {
		for _, n := range []int{16, 64, 1024 + 16} {
			src := randBytes(r, n)
			got, want := make([]byte, n), make([]byte, n)
			crypt(mc.ours(ct, iv), got, src)
			crypt(mc.ours(ref, iv), want, src)
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d bytes: the constant-time cipher differs from generic", mc.name, n)
			}
		}
	}

	for _, impl := range Implementations() {
		if !impl.Supported {
			continue
		}
		if c := mustCipher(t, key, impl.Name); c.ConstantTime() != impl.ConstantTime {
			t.Errorf("%s: ConstantTime() = %v, want %v", impl.Name, c.ConstantTime(), impl.ConstantTime)
		}
	}
	if new(Cipher).ConstantTime() {
		t.Error("a Cipher without a key says it is constant-time")
	}

	x, err := NewXTSConstantTime(append(key, key...))
	if err != nil {
		t.Fatal(err)
	}
	xref, _ := NewXTSImpl(append(key, key...), "generic")
	if !x.ConstantTime() || xref.ConstantTime() || new(XTS).ConstantTime() {
		t.Errorf("XTS ConstantTime: constant-time %v, generic %v, zero %v", x.ConstantTime(), xref.ConstantTime(), new(XTS).ConstantTime())
	}
	src := randBytes(r, 4096+7)
	got, want := make([]byte, len(src)), make([]byte, len(src))
	x.Encrypt(got, src, 42)
	xref.Encrypt(want, src, 42)
	if !bytes.Equal(got, want) {
		t.Error("NewXTSConstantTime differs from generic")
	}
	if _, err := NewXTSConstantTime(key[:31]); err != KeySizeError(31) {
		t.Errorf("31-byte XTS key: error %v, want KeySizeError(31)", err)
	}
}
