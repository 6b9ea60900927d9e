package lab

import (
	"testing"

	"github.com/nqueens/nqueens/internal/classic"
	"github.com/nqueens/nqueens/internal/lasvegas"
	"github.com/nqueens/nqueens/internal/localsearch"
)

// TestConstants: lab's limits and enums, written out so that go doc shows them, are the
// engines' own.
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name      string
		lab, want int64
	}{
		{"MaxSearchN", MaxSearchN, classic.MaxN},
		{"MaxLasVegasN", MaxLasVegasN, lasvegas.MaxN},
		{"MaxExactRowN", MaxExactRowN, lasvegas.MaxExactRowN},
		{"DefaultTrials", DefaultTrials, lasvegas.DefaultTrials},
		{"DefaultMaxChecks", DefaultMaxChecks, lasvegas.DefaultMaxChecks},
		{"Cell", int64(Cell), int64(lasvegas.Cell)},
		{"Row", int64(Row), int64(lasvegas.Row)},
		{"CheckScan", int64(CheckScan), int64(localsearch.CheckScan)},
		{"CheckPlaced", int64(CheckPlaced), int64(localsearch.CheckPlaced)},
		{"CheckAllQueens", int64(CheckAllQueens), int64(localsearch.CheckAllQueens)},
	} {
		if c.lab != c.want {
			t.Errorf("lab.%s = %d, the engine's %d", c.name, c.lab, c.want)
		}
	}
}
