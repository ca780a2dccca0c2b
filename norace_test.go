//go:build !race

package twofish

const raceEnabled = false
