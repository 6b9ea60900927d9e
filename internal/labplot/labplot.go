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

// figure is a plot and the marks it draws near the top of its data area, which its
// legend must leave room for (none: the legend is not fitted).
type figure struct {
	p     *plot.Plot
	marks []mark
}

// save writes the figures, stacked vertically, to path in the format of its
// extension.
func save(path string, size Size, figs ...figure) error {
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
	if len(figs) == 1 {
		// The last point of a curve sits at the right end of the x axis: keep it,
		// and its glyph, off the edge of the image.
		figs[0].draw(draw.Crop(dc, 0, -2*vg.Millimeter, 0, 0))
	} else {
		grid := make([][]*plot.Plot, len(figs))
		for i, f := range figs {
			grid[i] = []*plot.Plot{f.p}
		}
		tiles := draw.Tiles{Rows: len(figs), Cols: 1, PadY: vg.Centimeter / 2, PadTop: vg.Millimeter * 2,
			PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		canvases := plot.Align(grid, tiles, dc)
		for i, f := range figs {
			f.draw(canvases[i][0])
		}
	}
	return atomicfile.Write(path, false, func(f *os.File) error {
		_, err := c.WriteTo(f)
		return err
	})
}

// draw draws the figure on c. The title and a logarithmic y axis's label are drawn
// here rather than by gonum/plot, which reserves room for that label as if it were
// centred on the linear midpoint of the axis' range: near the top of a log axis, so
// that a long label pushed the plot down by tens of pixels, a blank band under the
// title and the legend. Then the top of the y axis is raised just enough for the
// legend to clear the marks under it.
func (f figure) draw(c draw.Canvas) {
	p := f.p
	title, label := p.Title.Text, p.Y.Label.Text
	defer func() { p.Title.Text, p.Y.Label.Text = title, label }()
	if title != "" {
		sty := p.Title.TextStyle
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y + sty.FontExtents().Descent}, title)
		c.Max.Y -= sty.Rectangle(title).Size().Y + p.Title.Padding
		p.Title.Text = ""
	}
	_, logY := p.Y.Scale.(plot.LogScale)
	inner := c
	if logY && label != "" {
		sty := p.Y.Label.TextStyle
		height, descent := sty.Height(label), sty.FontExtents().Descent
		inner = draw.Crop(c, height+descent+p.Y.Label.Padding, 0, 0, 0)
		p.Y.Label.Text = ""
		defer func() {
			sty.Rotation += math.Pi / 2
			da := p.DataCanvas(inner)
			c.FillText(sty, vg.Point{X: c.Min.X + height - descent, Y: da.Center().Y}, label)
		}()
	}
	if f.marks != nil && logY {
		fitLegend(p, inner, f.marks)
	}
	p.Draw(inner)
}

// mark is a point drawn at (x, y) in data coordinates, shifted by dx, whose glyph
// reaches r around it.
type mark struct {
	x, y  float64
	dx, r vg.Length
}

// The room left between the legend and the marks under it, and between the
// other marks and the top of the data area.
const (
	legendGap = 3 * vg.Millimeter
	topGap    = 2 * vg.Millimeter
)

// fitLegend sets the top of p's logarithmic y axis, drawn on c, to leave topGap
// above the highest mark, and to let the legend at the top of the plot clear
// every mark under it by legendGap, and by no more.
func fitLegend(p *plot.Plot, c draw.Canvas, marks []mark) {
	if !positive(p.Y.Min) || !positive(p.Y.Max) {
		return
	}
	size := p.Legend.Rectangle(c).Size()
	if !p.Legend.Top {
		size = vg.Point{}
	}
	lo, hi := math.Log(p.Y.Min), math.Log(p.Y.Max)
	for range 4 { // the data area moves a little with the axis' ticks
		da := p.DataCanvas(c)
		left, right := c.Max.X-size.X, c.Max.X
		if p.Legend.Left {
			left, right = da.Min.X, da.Min.X+size.X
		}
		under := c.Max.Y - size.Y - p.Legend.TextStyle.FontExtents().Descent - legendGap
		top := hi
		for _, m := range marks {
			if !positive(m.y) {
				continue
			}
			ceiling := da.Max.Y - topGap
			if x := da.X(p.X.Norm(m.x)) + m.dx; size.Y > 0 && x+m.r >= left && x-m.r <= right {
				ceiling = min(ceiling, under)
			}
			// The mark's glyph stays under its ceiling when its value sits at no
			// more than frac of the axis' height.
			frac := float64((ceiling - m.r - da.Min.Y) / (da.Max.Y - da.Min.Y))
			if frac < 0.25 {
				frac = 0.25 // a legend as tall as the plot: keep most of the axis for the data
			}
			top = max(top, lo+(math.Log(m.y)-lo)/frac)
		}
		p.Y.Max = math.Exp(top)
	}
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
