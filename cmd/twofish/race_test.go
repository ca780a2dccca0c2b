//go:build race

package main

func init() { buildRace = true }
