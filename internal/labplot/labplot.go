package labplot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/nqueens/nqueens/internal/atomicfile"
)

// Default image size in pixels.
const (
	DefaultWidth  = 800
	DefaultHeight = 500
)

// dpi is the resolution used to convert pixels to lengths.
const dpi = 96

// ErrFormat reports a file extension other than .png or .svg.
var ErrFormat = errors.New("labplot: unsupported image format (want .png or .svg)")

// ErrNoData reports a figure without a single drawable point.
var ErrNoData = errors.New("labplot: nothing to draw")

// Size is an image size in pixels; zero fields take the defaults.
type Size struct {
	Width, Height int
}

func (s Size) lengths() (w, h vg.Length) {
	if s.Width <= 0 {
		s.Width = DefaultWidth
	}
	if s.Height <= 0 {
		s.Height = DefaultHeight
	}
	return vg.Length(s.Width) * vg.Inch / dpi, vg.Length(s.Height) * vg.Inch / dpi
}

// Series is one named sequence of points.
type Series struct {
	// Label names the series in the legend.
	Label string
	// X and Y are the coordinates; they must have the same length.
	X, Y []float64
	// Err, if not nil, holds a standard error per point, drawn as an
	// error bar of ±Err.
	Err []float64
}

func (s Series) check() error {
	if len(s.X) != len(s.Y) || s.Err != nil && len(s.Err) != len(s.Y) {
		return fmt.Errorf("labplot: series %q: %d x, %d y, %d errors", s.Label, len(s.X), len(s.Y), len(s.Err))
	}
	return nil
}

// positive reports whether v can be drawn on a log axis.
func positive(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// save writes the plots, stacked vertically, to path in the format of its
// extension.
func save(path string, size Size, plots ...*plot.Plot) error {
	w, h := size.lengths()
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))}
	case ".svg":
		c = vgsvg.New(w, h)
	default:
		return fmt.Errorf("%w: %q", ErrFormat, path)
	}
	dc := draw.New(c)
	if len(plots) == 1 {
		plots[0].Draw(dc)
	} else {
		grid := make([][]*plot.Plot, len(plots))
		for i, p := range plots {
			grid[i] = []*plot.Plot{p}
		}
		tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Centimeter / 2, PadTop: vg.Millimeter * 2,
			PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		canvases := plot.Align(grid, tiles, dc)
		for i, p := range plots {
			p.Draw(canvases[i][0])
		}
	}
	return atomicfile.Write(path, false, func(f *os.File) error {
		_, err := c.WriteTo(f)
		return err
	})
}

// newPlot returns a plot with title, labels, a legend at the top right and
// grid lines.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// logAxis sets an axis to a logarithmic scale.
func logAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
}

// headroom raises the top of a log axis by the factor f, to leave room for
// the legend above the data.
func headroom(a *plot.Axis, f float64) {
	if a.Max > 0 {
		a.Max *= f
	}
}

// logTicks marks a log axis: on a range narrower than a decade, where
// there may be no power of ten at all, ordinary labelled ticks; up to three
// decades, labels at 1, 2 and 5 times the powers of ten; beyond, labels at
// the powers of ten only, with unlabelled minor ticks.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	switch {
	case hi/lo < 10:
		ticks = plot.DefaultTicks{}.Ticks(lo, hi)
	case hi/lo <= 1000:
		for d := math.Pow(10, math.Floor(math.Log10(lo))); d <= hi; d *= 10 {
			for i := 1; i < 10; i++ {
				v := d * float64(i)
				if v < lo || v > hi {
					continue
				}
				t := plot.Tick{Value: v}
				if i == 1 || i == 2 || i == 5 {
					t.Label = "x"
				}
				ticks = append(ticks, t)
			}
		}
	default:
		ticks = plot.LogTicks{}.Ticks(lo, hi)
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = formatTick(ticks[i].Value)
		}
	}
	return ticks
}

// formatTick writes powers of ten from 10^4 up and below 10^-3 as 1e4,
// 1e-4, and other values in the shortest plain form.
func formatTick(v float64) string {
	if e := math.Round(math.Log10(v)); v > 0 && (e >= 4 || e <= -4) && math.Abs(v-math.Pow(10, e)) < 1e-9*v {
		return fmt.Sprintf("1e%d", int(e))
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func colour(i int) color.Color { return plotutil.Color(i) }

var colourGrey = color.Gray{Y: 110}
