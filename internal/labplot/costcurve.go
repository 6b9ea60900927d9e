package labplot

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CostCurve is the U-shaped cost of the Las Vegas algorithm against the
// number m of random queens, on a logarithmic y axis, one curve per
// variant or per estimate (for example Monte Carlo and exact).
type CostCurve struct {
	// Title, XLabel and YLabel label the figure; empty labels get
	// defaults ("m (random queens)", "mean cost per solution").
	Title, XLabel, YLabel string
	// Curves are drawn in order with distinct colours.
	Curves []Curve
	// Size is the image size.
	Size Size
}

// Curve is one cost curve: X holds the values of m, Y the mean costs, Err
// (optional) their standard errors.
type Curve struct {
	Series
	// LowerBound, if not nil, flags the points whose mean is only a lower
	// bound (rows with censored runs): they are drawn as hollow triangles
	// off the line, with a legend entry of their own.
	LowerBound []bool
	// MarkOptimum asks for the point Optimum (an index into X and Y) to be
	// marked and labelled as the optimum.
	MarkOptimum bool
	Optimum     int
}

// Save writes the figure to path (.png or .svg).
func (c CostCurve) Save(path string) error {
	xl, yl := c.XLabel, c.YLabel
	if xl == "" {
		xl = "m (random queens)"
	}
	if yl == "" {
		yl = "mean cost per solution"
	}
	p := newPlot(c.Title, xl, yl)
	logAxis(&p.Y)
	drawn := 0
	var marks []mark // every glyph, for the legend to clear
	many := len(c.Curves) > 1
	for i, cv := range c.Curves {
		if err := cv.validate(); err != nil {
			return err
		}
		pts, bounds, errs, glyphs := cv.points()
		marks = append(marks, glyphs...)
		if len(bounds) > 0 {
			if err := cv.addBounds(p, i, bounds, many); err != nil {
				return err
			}
			drawn++
		}
		if len(pts) == 0 {
			continue
		}
		drawn++
		if err := cv.addLine(p, i, pts, errs); err != nil {
			return err
		}
		if cv.MarkOptimum && cv.Optimum >= 0 && cv.Optimum < len(cv.X) && positive(cv.Y[cv.Optimum]) {
			m, err := cv.addOptimum(p, many)
			if err != nil {
				return err
			}
			marks = append(marks, m)
		}
	}
	if drawn == 0 {
		return ErrNoData
	}
	return save(path, c.Size, figure{p, marks})
}

// validate checks the series and that LowerBound, when set, flags every point.
func (cv Curve) validate() error {
	if err := cv.check(); err != nil {
		return err
	}
	if cv.LowerBound != nil && len(cv.LowerBound) != len(cv.X) {
		return fmt.Errorf("labplot: curve %q: %d lower-bound flags for %d points", cv.Label, len(cv.LowerBound), len(cv.X))
	}
	return nil
}

// points sorts the curve's drawable points (positive means) into the points of its
// line, with their error bars when it has them, and the lower bounds drawn apart; marks
// are their glyphs, in order, for the legend to clear.
func (cv Curve) points() (pts, bounds plotter.XYs, errs plotter.YErrors, marks []mark) {
	for j := range cv.X {
		if !positive(cv.Y[j]) {
			continue
		}
		marks = append(marks, mark{x: cv.X[j], y: cv.Y[j], r: vg.Points(4)})
		if cv.LowerBound != nil && cv.LowerBound[j] {
			bounds = append(bounds, plotter.XY{X: cv.X[j], Y: cv.Y[j]})
			continue
		}
		pts = append(pts, plotter.XY{X: cv.X[j], Y: cv.Y[j]})
		if cv.Err != nil {
			// Keep the lower end of the bar above zero.
			lo := min(cv.Err[j], 0.95*cv.Y[j])
			errs = append(errs, struct{ Low, High float64 }{lo, cv.Err[j]})
			marks = append(marks, mark{x: cv.X[j], y: cv.Y[j] + cv.Err[j], r: vg.Points(3)})
		}
	}
	return pts, bounds, errs, marks
}

// addBounds draws the lower bounds of curve i as hollow triangles, with their legend
// entry (named after the curve when there are many).
func (cv Curve) addBounds(p *plot.Plot, i int, bounds plotter.XYs, many bool) error {
	lb, err := plotter.NewScatter(bounds)
	if err != nil {
		return err
	}
	lb.Color = colour(i)
	lb.Shape = draw.TriangleGlyph{}
	lb.Radius = vg.Points(3)
	p.Add(lb)
	text := "lower bound (censored runs)"
	if many && cv.Label != "" {
		text = cv.Label + ": " + text
	}
	p.Legend.Add(text, lb)
	return nil
}

// addLine draws curve i as a line through dots, with its legend entry and, when the
// curve has them, its error bars errs.
func (cv Curve) addLine(p *plot.Plot, i int, pts plotter.XYs, errs plotter.YErrors) error {
	line, scatter, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color = colour(i)
	scatter.Color = colour(i)
	scatter.Shape = draw.CircleGlyph{}
	scatter.Radius = vg.Points(2)
	p.Add(line, scatter)
	p.Legend.Add(cv.Label, line, scatter)
	if cv.Err != nil {
		eb, err := plotter.NewYErrorBars(errorBars{pts, errs})
		if err != nil {
			return err
		}
		eb.Color = colour(i)
		p.Add(eb)
	}
	return nil
}

// addOptimum rings the curve's point Optimum in red and labels it, with its legend entry
// (naming the curve when there are many), and returns the ring's mark.
func (cv Curve) addOptimum(p *plot.Plot, many bool) (mark, error) {
	o := plotter.XYs{{X: cv.X[cv.Optimum], Y: cv.Y[cv.Optimum]}}
	ring, err := plotter.NewScatter(o)
	if err != nil {
		return mark{}, err
	}
	ring.Shape = draw.RingGlyph{}
	ring.Radius = vg.Points(7)
	ring.Color = color.RGBA{R: 220, A: 255}
	p.Add(ring)
	// The legend's ring is smaller, to stay within its line.
	small := *ring
	small.Radius = vg.Points(4.5)
	text := fmt.Sprintf("optimum m=%g", o[0].X)
	if many && cv.Label != "" {
		text += " (" + cv.Label + ")"
	}
	p.Legend.Add(text, &small)
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: o, Labels: []string{fmt.Sprintf("  m=%g", o[0].X)}})
	if err != nil {
		return mark{}, err
	}
	labels.Offset = vg.Point{X: vg.Points(6), Y: -vg.Points(12)}
	p.Add(labels)
	return mark{x: o[0].X, y: o[0].Y, r: vg.Points(8)}, nil
}

// errorBars joins points and their error bars for plotter.NewYErrorBars.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}
