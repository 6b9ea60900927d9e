package labplot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars is a grouped bar chart on a logarithmic y axis: for each group (for
// example each teaching search) one bar per series (for example nodes and
// checks), side by side.
type Bars struct {
	// Title and YLabel label the figure.
	Title, YLabel string
	// Groups names the groups along the x axis.
	Groups []string
	// Series holds one value per group each; zero and negative values
	// are not drawn.
	Series []BarSeries
	// Size is the image size.
	Size Size
}

// BarSeries is one bar per group, in one colour, named in the legend.
type BarSeries struct {
	Label  string
	Values []float64
}

// Save writes the figure to path (.png or .svg).
func (b Bars) Save(path string) error {
	p := newPlot(b.Title, "", b.YLabel)
	logAxis(&p.Y)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range b.Series {
		if len(s.Values) != len(b.Groups) {
			return fmt.Errorf("labplot: bar series %q: %d values for %d groups", s.Label, len(s.Values), len(b.Groups))
		}
		for _, v := range s.Values {
			if positive(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return ErrNoData
	}
	// Bars start at the decade below the smallest value.
	base := math.Pow(10, math.Floor(math.Log10(lo)))
	width := vg.Points(min(40, 300/float64(max(1, len(b.Groups)*len(b.Series)))))
	var marks []mark
	for i, s := range b.Series {
		lb := &logBars{values: s.Values, base: base, top: hi, width: width,
			offset: width * (vg.Length(i) - vg.Length(len(b.Series)-1)/2)}
		for g, v := range s.Values {
			marks = append(marks, mark{x: float64(g), y: v, dx: lb.offset, r: width / 2})
		}
		lb.FillColor = colour(i)
		lb.LineStyle = plotter.DefaultLineStyle
		lb.LineStyle.Width = vg.Points(0.5)
		p.Add(lb)
		p.Legend.Add(s.Label, lb)
	}
	p.NominalX(b.Groups...)
	p.Legend.Left = true
	return save(path, b.Size, figure{p, marks})
}

// logBars draws bars from a positive base, which a log axis can show
// (plotter.BarChart starts its bars at 0).
type logBars struct {
	draw.LineStyle
	FillColor color.Color
	values    []float64
	base, top float64
	width     vg.Length
	offset    vg.Length
}

// Plot implements plot.Plotter.
func (b *logBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, v := range b.values {
		if !positive(v) {
			continue
		}
		x := trX(float64(i)) + b.offset
		pts := []vg.Point{
			{X: x - b.width/2, Y: trY(b.base)}, {X: x - b.width/2, Y: trY(v)},
			{X: x + b.width/2, Y: trY(v)}, {X: x + b.width/2, Y: trY(b.base)},
		}
		c.FillPolygon(b.FillColor, c.ClipPolygonY(pts))
		c.StrokeLines(b.LineStyle, c.ClipLinesY(append(pts, pts[0]))...)
	}
}

// DataRange implements plot.DataRanger.
func (b *logBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	// Half a group of room on each side keeps the outer bars inside.
	return -0.5, float64(len(b.values)) - 0.5, b.base, b.top
}

// GlyphBoxes implements plot.GlyphBoxer, so that the bars of the first and
// last groups stay inside the plot.
func (b *logBars) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, len(b.values))
	for i := range b.values {
		boxes[i].X = plt.X.Norm(float64(i))
		boxes[i].Y = 0.5
		boxes[i].Rectangle = vg.Rectangle{
			Min: vg.Point{X: b.offset - b.width/2},
			Max: vg.Point{X: b.offset + b.width/2},
		}
	}
	return boxes
}

// Thumbnail implements plot.Thumbnailer for the legend.
func (b *logBars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y},
	}
	c.FillPolygon(b.FillColor, c.ClipPolygonY(pts))
	c.StrokeLines(b.LineStyle, c.ClipLinesY(append(pts, pts[0]))...)
}
