// Package gf128 is the field of GCM's GHASH, GF(2^128), computed a bit at a
// time as NIST SP 800-38D defines it: a slow, plain reference for tests,
// shared by the GHASH implementations' tests and those that build GCM
// inputs by solving its equations (a nonce for a chosen counter, a
// ciphertext that two keys authenticate).
package gf128

import (
	"bytes"
	"encoding/binary"
)

// An Elem is an element in GCM's bit order: the first bit of the first
// byte is the coefficient of x^0.
type Elem [16]byte

// One is the field's 1.
var One = Elem{0x80}

// Add returns a + b.
func (a Elem) Add(b Elem) Elem {
	for i := range a {
		a[i] ^= b[i]
	}
	return a
}

// Mul returns a · b: SP 800-38D's Algorithm 1.
func (a Elem) Mul(b Elem) (z Elem) {
	v := b
	for i := range 128 {
		if a[i/8]>>(7-i%8)&1 == 1 {
			z = z.Add(v)
		}
		carry := v[15] & 1
		for k := 15; k > 0; k-- {
			v[k] = v[k]>>1 | v[k-1]<<7
		}
		v[0] >>= 1
		if carry == 1 {
			v[0] ^= 0xe1
		}
	}
	return z
}

// Inverse returns a^(2^128-2), the inverse of a non-zero a.
func (a Elem) Inverse() Elem {
	r := One
	// r = a^(2^n-1) after n rounds.
	for range 127 {
		r = r.Mul(r).Mul(a)
	}
	return r.Mul(r)
}

// GHASH is GHASH under h of the associated data ad and the ciphertext ct,
// each padded to whole blocks, then their lengths in bits.
func GHASH(h Elem, ad, ct []byte) (x Elem) {
	pad := func(b []byte) []byte { return append(bytes.Clone(b), make([]byte, -len(b)&15)...) }
	in := append(pad(ad), pad(ct)...)
	in = binary.BigEndian.AppendUint64(in, uint64(len(ad))*8)
	in = binary.BigEndian.AppendUint64(in, uint64(len(ct))*8)
	for i := 0; i < len(in); i += 16 {
		x = x.Add(Elem(in[i : i+16])).Mul(h)
	}
	return x
}
