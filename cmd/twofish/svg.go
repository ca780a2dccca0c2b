package main

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The charts of -svg: one standalone SVG file, written with the standard
// library, with a bar chart of MiB/s per key size (a group of bars per row,
// a bar per target) and, with -sweep, a line chart of MiB/s against message
// size per row and key size (a line per target). Each bar and point has a
// tooltip with its value.

// Chart geometry, in SVG user units (pixels).
const (
	svgWidth     = 1000
	svgPanel     = 380 // height of one chart
	svgMarginL   = 70  // room for the y axis labels
	svgMarginR   = 170 // room for the legend
	svgMarginTop = 40  // room for the chart title
	svgMarginBot = 60  // room for the x axis labels
)

// svgColors are the colours of the targets, in order: Tableau 10, then a
// darker shade of each. There are enough for every target of -impl all
// -compare (auto, ct, every implementation of the build, x/crypto and
// crypto/aes), so no two bars of a chart share a colour.
var svgColors = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	"#2b4c6f", "#a35a14", "#8c2d2e", "#3d7470", "#2f6b2a",
	"#a08a1c", "#6b3f63", "#c4547a", "#5c4331", "#5f5a57"}

// writeSVG writes the charts of results, measured for targets on the
// machine h describes, to the file name, saying on stderr if a signal stops
// it.
func writeSVG(name string, h benchHeader, targets []target, results []result, stderr io.Writer) error {
	var body bytes.Buffer
	y := 50
	for _, bits := range keySizesOf(targets) {
		barChart(&body, y, bits, targets, results)
		y += svgPanel
	}
	for _, g := range groupSweep(results) {
		lineChart(&body, y, g)
		y += svgPanel
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, y+10, svgWidth, y+10)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", svgMarginL,
		esc("twofish bench: "+h.CPU+", "+h.Go+" "+h.GOOS+"/"+h.GOARCH))
	b.Write(body.Bytes())
	b.WriteString("</svg>\n")
	return writeChart(name, b.Bytes(), stderr)
}

// writeChart writes b to the file name as enc's outputs are written: under
// a temporary name, renamed into place once all of it is on disk, so that a
// failed write (a full disk) or a signal leaves neither a partial chart nor
// an existing file truncated, as os.WriteFile would, nor the temporary file.
// An existing file is replaced, as -svg always has, and the chart is
// readable by all (0644), where the temporary file is created for its owner
// only.
func writeChart(name string, b []byte, stderr io.Writer) error {
	clean := newCleanup(stderr, "bench -svg")
	defer clean.stop()
	out, err := clean.create(name, nil, true, nil)
	if err == nil && out.tmp != nil {
		err = out.tmp.Chmod(0o644)
	}
	if err == nil {
		_, err = out.w.Write(b)
	}
	if err == nil {
		err = clean.do(out.commit)
	}
	if err != nil {
		return fmt.Errorf("-svg %s", strings.TrimPrefix(err.Error(), "-out "))
	}
	return nil
}

// keySizesOf returns the key sizes of targets, in order of appearance.
func keySizesOf(targets []target) []int {
	var bits []int
	for _, t := range targets {
		if !slices.Contains(bits, t.bits) {
			bits = append(bits, t.bits)
		}
	}
	return bits
}

// barChart draws, at height top, the MiB/s of the table rows of the
// targets with key size bits: a group of bars per row.
func barChart(b *bytes.Buffer, top, bits int, targets []target, results []result) {
	var ts []target
	for _, t := range targets {
		if t.bits == bits {
			ts = append(ts, t)
		}
	}
	var rows []string
	value := map[[2]string]float64{} // row, label -> MiB/s
	peak := 0.0
	for _, r := range results {
		if r.Method != "slope" || r.Key != bits {
			continue
		}
		name := r.Mode + " " + r.Dir
		if !slices.Contains(rows, name) {
			rows = append(rows, name)
		}
		value[[2]string{name, seriesName(r)}] = r.MiBPerSec
		peak = max(peak, r.MiBPerSec)
	}
	if len(rows) == 0 {
		return
	}
	x0, y0, w, h := svgMarginL, top+svgMarginTop, svgWidth-svgMarginL-svgMarginR, svgPanel-svgMarginTop-svgMarginBot
	yMax, step := niceScale(peak)
	fmt.Fprintf(b, `<g><text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", x0, top+svgMarginTop-14,
		esc(fmt.Sprintf("Throughput, %d-bit key, %d-byte buffers (higher is better)", bits, sizeOfResults(results))))
	yAxis(b, x0, y0, w, h, yMax, step, "MiB/s")
	groupW := float64(w) / float64(len(rows))
	barW := groupW * 0.8 / float64(len(ts))
	for i, name := range rows {
		gx := float64(x0) + float64(i)*groupW
		for j, t := range ts {
			v := value[[2]string{name, t.cipher + " " + t.impl}]
			bh := float64(h) * v / yMax
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				gx+groupW*0.1+float64(j)*barW, float64(y0+h)-bh, barW, bh, svgColors[j%len(svgColors)],
				esc(fmt.Sprintf("%s, %s: %s", t.label, name, formatMiBs(v))))
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", gx+groupW/2, y0+h+18, esc(name))
	}
	var names []string
	for _, t := range ts {
		names = append(names, t.cipher+" "+t.impl)
	}
	legend(b, x0+w+15, y0, names)
	b.WriteString("</g>\n")
}

// lineChart draws, at height top, the sweep g: MiB/s against message size
// on a logarithmic axis, a line per target.
func lineChart(b *bytes.Buffer, top int, g sweepGroup) {
	x0, y0, w, h := svgMarginL, top+svgMarginTop, svgWidth-svgMarginL-svgMarginR, svgPanel-svgMarginTop-svgMarginBot
	peak := 0.0
	for _, s := range g.series {
		for _, v := range s.mibs {
			peak = max(peak, v)
		}
	}
	yMax, step := niceScale(peak)
	fmt.Fprintf(b, `<g><text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", x0, top+svgMarginTop-14,
		esc(fmt.Sprintf("%s %s, %d-bit key: throughput by message size (one call per message)", g.mode, g.dir, g.bits)))
	yAxis(b, x0, y0, w, h, yMax, step, "MiB/s")
	// The sizes are powers of 4, so evenly spaced on a log axis.
	px := func(i int) float64 { return float64(x0) + float64(w)*(float64(i)+0.5)/float64(len(sweepSizes)) }
	for i, size := range sweepSizes {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", px(i), y0+h, px(i), y0+h+5)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", px(i), y0+h+18, esc(formatSize(size)))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">message size</text>`+"\n", x0+w/2, y0+h+40)
	var names []string
	for j, s := range g.series {
		color := svgColors[j%len(svgColors)]
		var pts []byte
		for i, v := range s.mibs {
			pts = fmt.Appendf(pts, "%.1f,%.1f ", px(i), float64(y0+h)-float64(h)*v/yMax)
		}
		fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", bytes.TrimSpace(pts), color)
		for i, v := range s.mibs {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s</title></circle>`+"\n",
				px(i), float64(y0+h)-float64(h)*v/yMax, color,
				esc(fmt.Sprintf("%s, %s: %s", s.name, formatSize(sweepSizes[i]), formatMiBs(v))))
		}
		names = append(names, s.name)
	}
	legend(b, x0+w+15, y0, names)
	b.WriteString("</g>\n")
}

// yAxis draws the frame of a chart of w by h at (x0, y0) with a y axis from
// 0 to yMax, a grid line every step, and unit beside it.
func yAxis(b *bytes.Buffer, x0, y0, w, h int, yMax, step float64, unit string) {
	decimals := max(0, int(-math.Floor(math.Log10(step))))
	for i := 0; float64(i)*step <= yMax*1.0001; i++ {
		v := float64(i) * step
		y := float64(y0+h) - float64(h)*v/yMax
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", x0, y, x0+w, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n",
			x0-6, y, strconv.FormatFloat(v, 'f', decimals, 64))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", x0, y0, w, h)
	fmt.Fprintf(b, `<text transform="translate(%d %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", 16, y0+h/2, esc(unit))
}

// legend draws a colour key for names at (x, y).
func legend(b *bytes.Buffer, x, y int, names []string) {
	for i, name := range names {
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", x, y+i*20, svgColors[i%len(svgColors)])
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", x+18, y+i*20+11, esc(name))
	}
}

// niceScale returns the top of an axis that shows values up to peak and a
// step of 1, 2 or 5 times a power of ten that divides it into 4 to 10
// parts.
func niceScale(peak float64) (top, step float64) {
	if !(peak > 0) || math.IsInf(peak, 0) {
		return 1, 0.25
	}
	step = math.Pow(10, math.Floor(math.Log10(peak/4)))
	for _, m := range []float64{1, 2, 5, 10} {
		if peak/(step*m) <= 10 {
			step *= m
			break
		}
	}
	return math.Ceil(peak/step) * step, step
}

// formatMiBs spells a speed of v MiB/s for a tooltip; 0 is a failed
// measurement.
func formatMiBs(v float64) string {
	if v > 0 {
		return formatNumber(v) + " MiB/s"
	}
	return "not measured"
}

// seriesName is the name of the bar or line that r belongs to.
func seriesName(r result) string { return r.Cipher + " " + r.Impl }

// sizeOfResults returns the buffer size of the table results.
func sizeOfResults(results []result) int {
	for _, r := range results {
		if r.Method == "slope" {
			return r.Size
		}
	}
	return 0
}

// esc escapes s for SVG text and attributes.
func esc(s string) string { return html.EscapeString(s) }
