package labplot

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LogLog is one or more log-log panels stacked vertically, for quantities
// that scale with n: for the local search, time against n in one panel
// and k against n in another.
type LogLog struct {
	// Panels are drawn from top to bottom.
	Panels []Panel
	// Size is the size of the whole image.
	Size Size
}

// Panel is one log-log plot.
type Panel struct {
	// Title, XLabel and YLabel label the panel.
	Title, XLabel, YLabel string
	// Series are drawn as lines with points; Err is drawn when present.
	Series []Series
	// Reference, if not empty, adds a dashed line of slope 1 (y = c·x)
	// fitted to the first series in the least-squares sense on the log
	// scale, with this text as its legend entry (e.g. "linear, c·n").
	// The default fonts lack some symbols such as ∝.
	Reference string
}

// Save writes the figure to path (.png or .svg).
func (l LogLog) Save(path string) error {
	var figs []figure
	for _, pn := range l.Panels {
		p := newPlot(pn.Title, pn.XLabel, pn.YLabel)
		logAxis(&p.X)
		logAxis(&p.Y)
		p.Legend.Top = false // increasing data leave the bottom right free
		var first plotter.XYs
		for i, s := range pn.Series {
			if err := s.check(); err != nil {
				return err
			}
			var pts plotter.XYs
			var errs plotter.YErrors
			for j := range s.X {
				if positive(s.X[j]) && positive(s.Y[j]) {
					pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
					if s.Err != nil {
						lo := min(s.Err[j], 0.95*s.Y[j])
						errs = append(errs, struct{ Low, High float64 }{lo, s.Err[j]})
					}
				}
			}
			if len(pts) == 0 {
				continue
			}
			if i == 0 {
				first = pts
			}
			line, scatter, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			line.Color, scatter.Color = colour(i), colour(i)
			scatter.Shape = draw.CircleGlyph{}
			scatter.Radius = vg.Points(2)
			p.Add(line, scatter)
			p.Legend.Add(s.Label, line, scatter)
			if s.Err != nil {
				eb, err := plotter.NewYErrorBars(errorBars{pts, errs})
				if err != nil {
					return err
				}
				eb.Color = colour(i)
				p.Add(eb)
			}
		}
		if first == nil {
			return ErrNoData
		}
		if pn.Reference != "" {
			// log y = log x + b, b = mean(log y − log x).
			var b float64
			for _, q := range first {
				b += math.Log(q.Y) - math.Log(q.X)
			}
			b = math.Exp(b / float64(len(first)))
			x0, x1 := first[0].X, first[0].X
			for _, q := range first {
				x0, x1 = min(x0, q.X), max(x1, q.X)
			}
			ref, err := plotter.NewLine(plotter.XYs{{X: x0, Y: b * x0}, {X: x1, Y: b * x1}})
			if err != nil {
				return err
			}
			ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			ref.Color = colourGrey
			p.Add(ref)
			p.Legend.Add(pn.Reference, ref)
		}
		figs = append(figs, figure{p: p})
	}
	if len(figs) == 0 {
		return ErrNoData
	}
	return save(path, l.Size, figs...)
}
