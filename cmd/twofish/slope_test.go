package main

import (
	"slices"
	"testing"
	"time"
)

func TestBufferLengths(t *testing.T) {
	for _, tc := range []struct {
		size int
		want []int
	}{
		{128, []int{16, 32, 48, 64, 80, 96, 112, 128}},
		{144, []int{16, 32, 48, 64, 80, 96, 112, 144}},
		{8192, []int{1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192}},
	} {
		if got := bufferLengths(tc.size); !slices.Equal(got, tc.want) {
			t.Errorf("bufferLengths(%d) = %v, want %v", tc.size, got, tc.want)
		}
	}
}

func TestFitSlope(t *testing.T) {
	xs := []float64{16, 32, 48, 64}
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = 2.5*x + 40
	}
	if got := fitSlope(xs, ys); got != 2.5 {
		t.Errorf("fitSlope of y = 2.5x + 40: %v, want 2.5", got)
	}
}

func TestMedian(t *testing.T) {
	if got := median([]float64{5, 1, 4, 2, 3}); got != 3 {
		t.Errorf("median of 1..5 = %v, want 3", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median of 1..4 = %v, want 2.5", got)
	}
}

// TestSlope checks that an operation whose cost grows with the length
// measures a positive cost per byte.
func TestSlope(t *testing.T) {
	var sum byte
	op := func(buf []byte) {
		for _, b := range buf {
			sum += b
		}
	}
	s := newSlope(op, make([]byte, 1024), 5*time.Millisecond)
	if ns := s.fit(); ns <= 0 {
		t.Errorf("summing bytes costs %v ns/B, want more than 0", ns)
	}
}
