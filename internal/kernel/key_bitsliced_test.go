package kernel

import "testing"

// TestTboxes checks the algebraic normal forms against the t-boxes of
// section 4.3.5, on all 16 inputs at once (input x in lane x).
func TestTboxes(t *testing.T) {
	var x [4]uint64
	for v := range 16 {
		for i := range x {
			x[i] |= uint64(v>>i&1) << v
		}
	}
	for q, f := range [2][4]func(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64){
		{tbox00, tbox01, tbox02, tbox03},
		{tbox10, tbox11, tbox12, tbox13},
	} {
		tab := [2]*[4][16]byte{&q0t, &q1t}[q]
		for i := range 4 {
			y0, y1, y2, y3 := f[i](x[0], x[1], x[2], x[3])
			for v := range 16 {
				got := byte(y0>>v&1 | y1>>v&1<<1 | y2>>v&1<<2 | y3>>v&1<<3)
				if want := tab[i][v]; got != want {
					t.Errorf("tbox%d%d(%#x) = %#x, want %#x", q, i, v, got, want)
				}
			}
		}
	}
}

// laneBytes returns the bytes of the lanes of p.
func laneBytes(p *planes) (b [64]byte) {
	for l := range b {
		for i := range p {
			b[l] |= byte(p[i]>>l&1) << i
		}
	}
	return b
}

func TestQSliced(t *testing.T) {
	for q, want := range [2]*[256]byte{&q0, &q1} {
		for g := range 4 {
			p := sliceBytes(func(l int) byte { return byte(64*g + l) })
			qSliced(q, &p)
			for l, got := range laneBytes(&p) {
				if x := 64*g + l; got != want[x] {
					t.Fatalf("qSliced(q%d) at %#02x = %#02x, want %#02x", q, x, got, want[x])
				}
			}
		}
	}
}

func TestTranspose(t *testing.T) {
	r := testRand(t)
	var in [64]byte
	for l := range in {
		in[l] = byte(r.Uint32())
	}
	p := sliceBytes(func(l int) byte { return in[l] })
	p.transpose()
	for k := range 8 {
		for row := range 8 {
			if got, want := byte(p[row]>>(8*k)), in[8*k+row]; got != want {
				t.Fatalf("byte %d of row %d = %#02x, want lane %d's %#02x", k, row, got, 8*k+row, want)
			}
		}
	}
}

func TestMDSSliced(t *testing.T) {
	r := testRand(t)
	var in [4][64]byte
	var y [4]planes
	for j := range 4 {
		for l := range 64 {
			in[j][l] = byte(r.Uint32())
		}
		y[j] = sliceBytes(func(l int) byte { return in[j][l] })
	}
	h := mdsSliced(&y)
	var out [4][64]byte
	for i := range 4 {
		out[i] = laneBytes(&h[i])
	}
	for l := range 64 {
		var want uint32
		for j := range 4 {
			want ^= mdsColumn(j, in[j][l])
		}
		got := uint32(out[0][l]) | uint32(out[1][l])<<8 | uint32(out[2][l])<<16 | uint32(out[3][l])<<24
		if got != want {
			t.Fatalf("lane %d: MDS product %#08x, want %#08x", l, got, want)
		}
	}
}
