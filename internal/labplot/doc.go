// Package labplot draws the figures of the lab with gonum/plot: the
// U-shaped cost curve of the Las Vegas sweep ([CostCurve]), the node and
// check bars of the four teaching searches ([Bars]), and time and k of the
// local search against n on log-log axes ([LogLog]).
//
// Data come in as plain slices, so the package depends on no engine. Each
// figure has a Save method that writes PNG or SVG, chosen by the file
// extension (".png", ".svg"). Sizes are in pixels at 96 dots per inch; the
// zero value means DefaultWidth × DefaultHeight.
//
// Logarithmic axes cannot show zero or negative values: such points (for
// example the means of a censored row with no completed run) are left out,
// and a figure with nothing left to draw is an error.
package labplot
