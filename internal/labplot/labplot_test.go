package labplot

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// checkPNG decodes the file and checks its size.
func checkPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s: %dx%d, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
	// A blank image means nothing was drawn: count non-white pixels.
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0xe000 {
				dark++
			}
		}
	}
	if dark < 200 {
		t.Errorf("%s: only %d drawn pixels", path, dark)
	}
}

func checkSVG(t *testing.T, path string, words ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(data), []byte("</svg>")) {
		t.Errorf("%s: not an SVG document", path)
	}
	_ = words
}

// uCurve is a U-shaped sample: cost = 10^(|m−38|/6) · 1000.
func uCurve() CostCurve {
	var s Series
	s.Label = "cell, Monte Carlo"
	for m := 0; m <= 50; m++ {
		y := 1000 * math.Pow(10, math.Abs(float64(m)-38)/6)
		if m < 20 {
			y = 0 // censored rows: not drawn
		}
		s.X = append(s.X, float64(m))
		s.Y = append(s.Y, y)
		s.Err = append(s.Err, y/10)
	}
	exact := Series{Label: "row, exact", X: []float64{30, 35, 40, 45}, Y: []float64{5e4, 8e3, 3e3, 2e4}}
	return CostCurve{
		Title:  "Las Vegas, n=50: checks per solution",
		YLabel: "mean checks per solution",
		Curves: []Curve{{Series: s, MarkOptimum: true, Optimum: 38, LowerBound: lowerBounds(s.X)}, {Series: exact}},
	}
}

// lowerBounds flags m < 25 and m > 45 as censored.
func lowerBounds(ms []float64) []bool {
	lb := make([]bool, len(ms))
	for i, m := range ms {
		lb[i] = m < 25 || m > 45
	}
	return lb
}

func searchBars() Bars {
	return Bars{
		Title:  "Teaching searches, n=10",
		YLabel: "count",
		Groups: []string{"classic", "row", "cell", "cellprune"},
		Series: []BarSeries{
			{"nodes", []float64{35539, 35539, 7535369, 185489}},
			{"checks", []float64{348150, 348150, 70450278, 1256703}},
		},
	}
}

func scaling() LogLog {
	n := []float64{1e3, 1e4, 1e5, 1e6, 1e7}
	return LogLog{Panels: []Panel{
		{Title: "Sosic–Gu: time", XLabel: "n", YLabel: "seconds", Reference: "linear reference, c·n",
			Series: []Series{{Label: "O(1) check", X: n, Y: []float64{2e-4, 2.1e-3, 2.3e-2, 0.25, 2.9}},
				{Label: "O(j) check", X: n[:3], Y: []float64{1e-3, 0.1, 10}}}},
		{Title: "Sosic–Gu: conflicting queens after the initial search", XLabel: "n", YLabel: "k",
			Series: []Series{{Label: "k", X: n, Y: []float64{24, 27, 25, 26, 28}, Err: []float64{1, 1, 1, 1, 1}}}},
	}}
}

func TestFigures(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("LABPLOT_OUT"); d != "" {
		dir = d // keep the images to look at them
	}
	figs := []struct {
		name string
		save func(string) error
	}{
		{"u", uCurve().Save},
		{"bars", searchBars().Save},
		{"loglog", scaling().Save},
	}
	for _, f := range figs {
		p := filepath.Join(dir, f.name+".png")
		if err := f.save(p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkPNG(t, p, DefaultWidth, DefaultHeight)
		s := filepath.Join(dir, f.name+".svg")
		if err := f.save(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		checkSVG(t, s)
	}
	c := uCurve()
	c.Size = Size{Width: 640, Height: 480}
	p := filepath.Join(dir, "u640.PNG")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, p, 640, 480)
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if err := uCurve().Save(filepath.Join(dir, "u.jpg")); !errors.Is(err, ErrFormat) {
		t.Errorf("jpg: %v, want ErrFormat", err)
	}
	empty := CostCurve{Curves: []Curve{{Series: Series{X: []float64{1, 2}, Y: []float64{0, -1}}}}}
	if err := empty.Save(filepath.Join(dir, "e.png")); !errors.Is(err, ErrNoData) {
		t.Errorf("no data: %v, want ErrNoData", err)
	}
	bad := CostCurve{Curves: []Curve{{Series: Series{X: []float64{1, 2}, Y: []float64{1}}}}}
	if err := bad.Save(filepath.Join(dir, "b.png")); err == nil {
		t.Error("mismatched lengths accepted")
	}
	b := searchBars()
	b.Series[0].Values = b.Series[0].Values[:2]
	if err := b.Save(filepath.Join(dir, "b.png")); err == nil {
		t.Error("mismatched bar values accepted")
	}
	if err := (LogLog{}).Save(filepath.Join(dir, "l.png")); !errors.Is(err, ErrNoData) {
		t.Errorf("empty log-log: %v", err)
	}
	if err := uCurve().Save(filepath.Join(dir, "missing", "u.png")); err == nil {
		t.Error("unwritable path accepted")
	}
}

// labCurve is a curve as `nqueens lab lasvegas 20 --variant cell --plot` draws it: one
// series with standard errors, high at both ends, its optimum marked, lower bounds
// (censored rows) at the right end when censored is set.
func labCurve(censored bool) CostCurve {
	var c Curve
	c.Label = "cell variant, 30 trials per m"
	for m := 0; m <= 20; m++ {
		y := 9e3 * math.Pow(10, math.Abs(float64(m)-10)/(10/math.Log10(4e6/9e3)))
		c.X, c.Y, c.Err = append(c.X, float64(m)), append(c.Y, y), append(c.Err, y/5)
		c.LowerBound = append(c.LowerBound, censored && m >= 18)
	}
	c.MarkOptimum, c.Optimum = true, 10
	return CostCurve{
		Title:  "Las Vegas hybrid, n = 20: cost against random queens",
		YLabel: "mean checks per solution (log scale)",
		Curves: []Curve{c},
	}
}

// rgb reads a pixel as 8-bit values.
func rgb(img image.Image, x, y int) (r, g, b int) {
	R, G, B, _ := img.At(x, y).RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

// ink reports whether a pixel is drawn: not white, and not the light grey of a grid line.
func ink(img image.Image, x, y int) bool {
	r, g, b := rgb(img, x, y)
	light := r > 150 && g > 150 && b > 150 && max(r, g, b)-min(r, g, b) < 12
	return !light
}

// TestCostCurveLayout measures the rendered PNG of a lab U curve: no blank band
// between the title and the plot (a long log-axis label made one of about 50 px), and
// the legend just above the marks under it (the ×3 headroom left about 60 px more).
func TestCostCurveLayout(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("LABPLOT_OUT"); d != "" {
		dir = d // keep the images to look at them
	}
	for _, censored := range []bool{false, true} {
		path := filepath.Join(dir, fmt.Sprintf("u-%v.png", censored))
		if err := labCurve(censored).Save(path); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		rowInk := func(y, x0, x1 int) bool {
			for x := x0; x < x1; x++ {
				if ink(img, x, y) {
					return true
				}
			}
			return false
		}
		// The longest run of blank rows between the first drawn row and the last.
		first, last := 0, h-1
		for !rowInk(first, 0, w) {
			first++
		}
		for !rowInk(last, 0, w) {
			last--
		}
		band, run, at := 0, 0, 0
		for y := first; y <= last; y++ {
			if rowInk(y, 0, w) {
				run = 0
			} else if run++; run > band {
				band, at = run, y-run+1
			}
		}
		if band > 16 {
			t.Errorf("censored=%v: a blank band of %d rows inside the figure", censored, band)
		}
		// Under the legend (the right quarter, top half): the last row of its text
		// (black), then the first of the marks under it (in the curve's red).
		x0 := w * 3 / 4
		find := func(from, to int, want func(r, g, b int) bool) int {
			step := 1
			if to < from {
				step = -1
			}
			for y := from; y != to; y += step {
				for x := x0; x < w; x++ {
					if want(rgb(img, x, y)) {
						return y
					}
				}
			}
			return -1
		}
		legendEnd := find(h/2, 0, func(r, g, b int) bool { return r < 90 && g < 90 && b < 90 })
		markTop := find(legendEnd+1, h/2, func(r, g, b int) bool { return r > 180 && g < 150 && b < 150 })
		gap := markTop - legendEnd - 1
		t.Logf("censored=%v: longest blank band %d rows from row %d; the legend ends at row %d, the marks under it start %d rows lower", censored, band, at, legendEnd, gap)
		if legendEnd < 0 || markTop < 0 || gap < 3 || gap > 25 {
			t.Errorf("censored=%v: %d rows between the legend's text (to row %d) and the marks under it (from row %d), want 3 to 25",
				censored, gap, legendEnd, markTop)
		}
	}
}
