package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens/lab"
)

// TestBrowserPlaceLoop (issue 41, P2 4): classic backtracking shows the O(k) loop of
// Place, which the row DFS does in O(1): each comparison with the queen of an earlier row
// is a step, with its line lit, its sentence and the variable j, the queen compared
// ringed, and a counter that ends at the lab's Place loop iterations. The row DFS has no
// such counter.
func TestBrowserPlaceLoop(t *testing.T) {
	const n = 6
	run, err := lab.LookupSearch("classic")
	if !err {
		t.Fatal("no classic search")
	}
	want, rerr := run.Run(context.Background(), n, nil)
	if rerr != nil {
		t.Fatal(rerr)
	}
	p := openPage(t)
	tr := loadReplay[traceResponse](p, "classic", map[string]string{"trace-n": fmt.Sprint(n), "until": "all"},
		fmt.Sprintf("/api/trace?search=classic&n=%d&until=all", n))
	compare := slices.Index(tr.Kinds, "compare")
	var compares []int // the events' indexes
	for i, e := range tr.Events {
		if int(e[0]) == compare {
			compares = append(compares, i)
		}
	}
	if compare < 0 || int64(len(compares)) != want.PlaceLoopIterations || tr.PlaceLoopIterations == nil || *tr.PlaceLoopIterations != want.PlaceLoopIterations {
		t.Fatalf("n=%d: %d compare events, the answer says %v, the lab %d", n, len(compares), tr.PlaceLoopIterations, want.PlaceLoopIterations)
	}
	// One comparison that finds no attack, one that does.
	free := compares[slices.IndexFunc(compares, func(i int) bool { return tr.Events[i][5] == 0 })]
	hit := compares[slices.IndexFunc(compares, func(i int) bool { return tr.Events[i][5] == 1 })]
	for _, i := range []int{free, hit} {
		e := tr.Events[i]
		r, c, j, cj := e[1], e[2], e[3], e[4]
		p.stepTo(i + 1)
		if l := p.lit(""); l != int(e[len(e)-1]) || !strings.Contains(eval[string](p, `document.querySelector("#code li.lit").textContent`), "if x[j]") {
			t.Errorf("compare %v: line %d lit", e, l)
		}
		vars := eval[string](p, `document.getElementById("vars").textContent`)
		if !strings.Contains(vars, fmt.Sprintf("j%d", j)) {
			t.Errorf("compare %v: the variables %q do not say j = %d", e, vars, j)
		}
		if got := p.counter("loops"); got != int64(slices.Index(compares, i)+1) {
			t.Errorf("compare %v: the Place loop counter says %d, want %d", e, got, slices.Index(compares, i)+1)
		}
		for _, l := range []string{"en", "zh"} {
			p.setLang(l)
			s := p.text("last-event")
			wantWords := map[string][]string{
				"en": {fmt.Sprintf("Place(%d)", r), fmt.Sprintf("the queen of row %d (column %d)", j, cj), fmt.Sprintf("row %d, column %d", r, c)},
				"zh": {fmt.Sprintf("Place(%d)", r), fmt.Sprintf("第 %d 行的皇后（第 %d 列）", j, cj), fmt.Sprintf("第 %d 行第 %d 列", r, c)},
			}[l]
			if e[5] == 1 {
				wantWords = append(wantWords, map[string]string{"en": "returns false", "zh": "返回"}[l])
			}
			for _, w := range wantWords {
				if !strings.Contains(s, w) {
					t.Errorf("compare %v in %s: %q does not say %q", e, l, s, w)
				}
			}
		}
		p.setLang("en")
		ring := eval[bool](p, `[...document.querySelectorAll("#replay-legend .swatch")].some((s) => s.classList.contains("compared"))`)
		if !ring {
			t.Errorf("classic: no legend for the queen Place compares")
		}
	}
	p.stepTo(len(tr.Events))
	if got := p.counter("loops"); got != want.PlaceLoopIterations {
		t.Errorf("at the end the Place loop counter says %d, the lab %d", got, want.PlaceLoopIterations)
	}
	// The row DFS checks in O(1): no loop, no counter, no compare events.
	row := loadReplay[traceResponse](p, "row", map[string]string{"trace-n": fmt.Sprint(n), "until": "all"}, fmt.Sprintf("/api/trace?search=row&n=%d&until=all", n))
	if eval[bool](p, `document.getElementById("loops") !== null`) || row.PlaceLoopIterations != nil {
		t.Errorf("row DFS: a Place loop counter")
	}
}
