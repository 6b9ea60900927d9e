package main

import (
	"fmt"

	"github.com/nqueens/nqueens/lab"
)

// The figures of the lab commands; the drawing itself is internal/labplot's.

func plotBacktrack(path string, n int, rows []backtrackRow) error {
	b := lab.Bars{Title: fmt.Sprintf("Teaching searches, n = %d", n), YLabel: "count (log scale)",
		Series: []lab.BarSeries{{Label: "nodes"}, {Label: "checks"}}}
	for _, r := range rows {
		b.Groups = append(b.Groups, r.Variant)
		b.Series[0].Values = append(b.Series[0].Values, float64(r.Nodes))
		b.Series[1].Values = append(b.Series[1].Values, float64(r.Checks))
	}
	return b.Save(path)
}

func plotLasVegas(path string, res lab.SweepResult) error {
	c := lab.Curve{Series: lab.Series{Label: fmt.Sprintf("%s variant, %d trials per m", res.Variant, res.Trials)}}
	for i, r := range res.Rows {
		est := r.Cost(res.Objective)
		if i == res.Optimum {
			c.MarkOptimum, c.Optimum = true, i
		}
		c.X = append(c.X, float64(r.M))
		c.Y = append(c.Y, est.Mean)
		c.Err = append(c.Err, est.SE)
		// Rows with runs stopped by the budget give lower bounds only.
		c.LowerBound = append(c.LowerBound, r.Censored > 0)
	}
	return lab.CostCurve{
		Title:  fmt.Sprintf("Las Vegas hybrid, n = %d: cost against random queens", res.N),
		YLabel: fmt.Sprintf("mean %s per solution (log scale)", res.Objective),
		Curves: []lab.Curve{c},
	}.Save(path)
}

func plotExact(path string, n int, v lab.Variant, rows []lab.ExactResult) error {
	c := lab.Curve{Series: lab.Series{Label: fmt.Sprintf("%s variant, exact", v)}, MarkOptimum: true}
	for i, r := range rows {
		c.X = append(c.X, float64(r.M))
		c.Y = append(c.Y, r.T)
		if r.T < c.Y[c.Optimum] {
			c.Optimum = i
		}
	}
	return lab.CostCurve{
		Title:  fmt.Sprintf("Las Vegas hybrid, n = %d: expected nodes explored (exact)", n),
		YLabel: "expected nodes explored t (log scale)",
		Curves: []lab.Curve{c},
	}.Save(path)
}

func plotLocalSearch(path string, rows []localSearchRow) error {
	var n, secs, k, scan []float64
	var nScan []float64
	for _, r := range rows {
		n = append(n, float64(r.N))
		secs = append(secs, r.Seconds)
		k = append(k, float64(r.K))
		if r.InitScan > 0 {
			nScan = append(nScan, float64(r.N))
			scan = append(scan, r.InitScan)
		}
	}
	timePanel := lab.Panel{Title: "Sosic–Gu local search: time against n", XLabel: "n", YLabel: "seconds",
		Series: []lab.Series{{Label: "solve", X: n, Y: secs}}, Reference: "linear, c·n"}
	if len(scan) > 0 {
		timePanel.Series = append(timePanel.Series, lab.Series{Label: "initial search, O(j) scan", X: nScan, Y: scan})
	}
	return lab.LogLog{Panels: []lab.Panel{
		timePanel,
		{Title: "queens left in conflict after the initial search", XLabel: "n", YLabel: "k",
			Series: []lab.Series{{Label: "k", X: n, Y: k}}},
	}, Size: lab.Size{Height: 800}}.Save(path)
}
