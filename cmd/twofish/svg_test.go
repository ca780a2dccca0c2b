package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestLineChartPointsOnLines checks a sweep's line chart: each point with
// a tooltip lies on its target's line, and the legend gives each target
// the colour of its line.
func TestLineChartPointsOnLines(t *testing.T) {
	g := sweepGroup{mode: "CTR", dir: "enc", bits: 128}
	for j, name := range []string{"generic", "crypto/aes"} {
		s := sweepSeries{name: name}
		for i := range sweepSizes {
			s.mibs = append(s.mibs, float64((j+1)*(i+1)*10))
		}
		g.series = append(g.series, s)
	}
	var b bytes.Buffer
	lineChart(&b, 0, g)
	svg := b.String()
	lines := regexp.MustCompile(`<polyline points="([^"]*)" fill="none" stroke="([^"]+)"`).FindAllStringSubmatch(svg, -1)
	circles := regexp.MustCompile(`<circle cx="([^"]+)" cy="([^"]+)" r="3" fill="([^"]+)">`).FindAllStringSubmatch(svg, -1)
	keys := regexp.MustCompile(`<rect x="\d+" y="\d+" width="12" height="12" fill="([^"]+)"/>\n<text [^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1)
	if len(lines) != 2 || len(circles) != 2*len(sweepSizes) || len(keys) != 2 {
		t.Fatalf("%d lines, %d points, %d legend keys:\n%s", len(lines), len(circles), len(keys), svg)
	}
	for j, line := range lines {
		pts := strings.Fields(line[1])
		for i, c := range circles[j*len(sweepSizes) : (j+1)*len(sweepSizes)] {
			if i >= len(pts) || pts[i] != c[1]+","+c[2] || c[3] != line[2] {
				t.Errorf("line %d: point %d at %s,%s in %s, off its line %q in %s", j, i, c[1], c[2], c[3], line[1], line[2])
			}
		}
		if keys[j][1] != line[2] || keys[j][2] != g.series[j].name {
			t.Errorf("legend key %q for the line of %s in %s", keys[j][1:], g.series[j].name, line[2])
		}
	}
}

// TestWriteChartReadable checks that -svg's chart is readable by all, as a
// file os.Create makes is, though written under a temporary name for its
// owner only (where the system has Unix permissions), and that a chart
// that cannot be written says -svg.
func TestWriteChartReadable(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "chart.svg")
	if err := writeChart(name, []byte("<svg/>\n"), new(strings.Builder)); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "wasip1" && runtime.GOOS != "js" { // no Unix permissions, or none the host reports
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o644 {
			t.Errorf("chart with permissions %v, want 0644", perm)
		}
	}
	err := writeChart(filepath.Join(dir, "none", "chart.svg"), []byte("<svg/>\n"), new(strings.Builder))
	if err == nil || !strings.HasPrefix(err.Error(), "-svg ") || strings.Contains(err.Error(), "-out") {
		t.Errorf("chart in a missing directory: %v", err)
	}
}
