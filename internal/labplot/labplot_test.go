package labplot

import (
	"bytes"
	"errors"
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
