package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The table layout is bench-slope's: a label column as wide as the widest
// table label, then four right-aligned columns.

// printHeader prints the first line of a table, labelled label.
func printHeader(w io.Writer, width int, label string) {
	fmt.Fprintf(w, "%-*s | %14s %15s %13s %9s\n", width, label, "nanosecs/byte", "mebibytes/sec", "cycles/byte", "auto Mhz")
}

// printRow prints the row called name: the cost ns in nanoseconds per byte,
// the speed it makes, and the cost in cycles at mhz. A cost that is not
// positive (a failed measurement) and a clock of 0 (none measured) print as
// "-".
func printRow(w io.Writer, width int, name string, ns, mhz float64) {
	nsB, mibS, cB, mhzS := "-", "-", "-", "-"
	if mhz > 0 {
		mhzS = formatNumber(mhz)
	}
	if ns > 0 {
		nsB = formatNumber(ns)
		mibS = formatNumber(1e9 / (ns * (1 << 20)))
		if mhz > 0 {
			cB = formatNumber(ns * mhz / 1000)
		}
	}
	fmt.Fprintf(w, "%*s | %9s ns/B %9s MiB/s %9s c/B %9s\n", width, name, nsB, mibS, cB, mhzS)
}

// printFooter closes a table, as bench-slope does.
func printFooter(w io.Writer, width int) {
	fmt.Fprintln(w, strings.Repeat(" ", width)+" =")
}

// formatNumber prints v with bench-slope's precision: three decimals below
// 1, two below 100, one below 1000 and none from there.
func formatNumber(v float64) string {
	prec := 0
	switch {
	case v < 1:
		prec = 3
	case v < 100:
		prec = 2
	case v < 1000:
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}
