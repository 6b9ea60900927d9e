// Package qjoin is the quadrant-join counter for 4 ≤ n ≤ 21: it splits the
// board into West/East halves and quadrants, lists every partial placement
// of each quadrant once (the quarter tables), joins quarters into halves and
// counts the compatible East–West pairs of halves with a bit-matrix matcher.
// Totals use the symmetry weights of the long diagonals and the north–south
// mirror; unique counts come from Burnside's lemma with two extra searches.
// (Full description to follow.)
package qjoin
