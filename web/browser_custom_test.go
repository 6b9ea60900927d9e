package web

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
)

// TestBrowserCustomStart (issue 41, custom start): on the replay panel a user places
// queens on the board with clicks, and the row-by-row searches replay from them: the
// answer names them, the counters end at their completions (CountCompletions, another
// algorithm), the board frames their squares, a fixed row's step says so in both
// languages, the address keeps them, and the cell searches do not offer it.
func TestBrowserCustomStart(t *testing.T) {
	p := openPage(t)
	p.panel("replay")
	p.set("search", "classic")
	eval[bool](p, `document.getElementById("search").dispatchEvent(new Event("change")) || true`)
	p.set("trace-n", "6")
	p.set("until", "all")
	eval[bool](p, `(document.getElementById("trace-fix").value = "", true)`)
	if !p.visible("trace-fix") || !p.visible("fix-edit") {
		t.Fatal("classic: no custom start")
	}
	p.click("#fix-edit")
	// Click the squares (1, 2) and (4, 1), then (3, 3) twice (on, off), as a user would.
	clickSquare := func(r, c int) {
		eval[bool](p, fmt.Sprintf(`(() => {
			const b = document.getElementById("replay-board").getBoundingClientRect();
			const x = b.left + (%d - 0.5) * b.width / 6, y = b.top + (%d - 0.5) * b.height / 6;
			document.getElementById("replay-board").dispatchEvent(new MouseEvent("click", { clientX: x, clientY: y, bubbles: true }));
			return true;
		})()`, c, r))
	}
	for _, sq := range [][2]int{{1, 2}, {4, 1}, {3, 3}, {3, 3}} {
		clickSquare(sq[0], sq[1])
	}
	if got := eval[string](p, `document.getElementById("trace-fix").value`); got != "1:2, 4:1" {
		t.Fatalf("after the clicks the field says %q, want 1:2, 4:1", got)
	}
	if s := p.text("replay-status"); !strings.Contains(s, "Click the squares") {
		t.Errorf("the editor's status: %q", s)
	}
	eval[bool](p, `(document.getElementById("replay-status").textContent = "", true)`)
	p.click("#load")
	p.waitFor(`document.getElementById("replay-status").textContent !== "" && !document.getElementById("replay-panel").dataset.busy`)
	tr := getJSON[traceResponse](p, "/api/trace?search=classic&n=6&until=all&fix="+url.QueryEscape("1:2, 4:1"))
	fix, _ := nqueens.ParsePartial("1:2, 4:1", 6)
	want, _ := nqueens.CountCompletions(context.Background(), fix, nqueens.CompletionOptions{})
	if len(tr.Fix) != 2 || tr.Total != int64(want.Total) || want.Total == 0 {
		t.Fatalf("the replay from 1:2, 4:1: fix %v, %d completions; CountCompletions %d", tr.Fix, tr.Total, want.Total)
	}
	if q := eval[string](p, `location.search`); !strings.Contains(q, "fix=1%3A2%2C+4%3A1") {
		t.Errorf("the address %q does not keep the fixed queens", q)
	}
	if !eval[bool](p, `[...document.querySelectorAll("#replay-legend .swatch")].some((s) => s.classList.contains("pinned"))`) {
		t.Errorf("no legend for the fixed queens' squares")
	}
	// The first place event in row 4: the sentence says the row is fixed.
	at := -1
	for i, e := range tr.Events {
		if e[0] == evPlace && e[1] == 4 {
			at = i + 1
			break
		}
	}
	if at < 0 {
		t.Fatal("no queen placed in row 4")
	}
	p.stepTo(at)
	for l, w := range map[string]string{"en": "row 4 is fixed: its queen, column 1", "zh": "第 4 行是固定的：它的皇后在第 1 列"} {
		p.setLang(l)
		if s := p.text("last-event"); !strings.Contains(s, w) {
			t.Errorf("%s: the place in the fixed row says %q, want %q", l, s, w)
		}
	}
	p.setLang("en")
	p.stepTo(len(tr.Events))
	if got := p.counter("solutions"); got != tr.Total {
		t.Errorf("at the end the page counts %d solutions, the completions are %d", got, tr.Total)
	}
	// The address replays the same custom start.
	p.navigate("/?lang=en&panel=replay&search=row&n=6&until=all&fix=" + url.QueryEscape("1:2, 4:1") + "&event=3")
	if got := eval[string](p, `document.getElementById("trace-fix").value`); got != "1:2, 4:1" || !strings.Contains(p.text("replay-status"), "events") {
		t.Errorf("from the address: field %q, status %q", got, p.text("replay-status"))
	}
	// The local search from the same board keeps the fixed queens (FindCompletion's local
	// search): its last step is solved, on a board with both.
	p.navigate("/?lang=en&panel=replay&search=localsearch&n=8&seed=3&check=placed&fix=" + url.QueryEscape("1:2, 4:1"))
	lt := getJSON[localSearchTrace](p, "/api/trace?search=localsearch&n=8&seed=3&check=placed&fix="+url.QueryEscape("1:2, 4:1"))
	if !p.visible("trace-fix") || len(lt.Fix) != 2 {
		t.Fatalf("local search: no custom start (fix %v)", lt.Fix)
	}
	p.stepTo(len(lt.Events))
	label := eval[string](p, `document.getElementById("replay-board").getAttribute("aria-label")`)
	if s := p.text("last-event"); !strings.Contains(s, "solved") || !strings.Contains(label, "row 1 column 2,") || !strings.Contains(label, "row 4 column 1,") {
		t.Errorf("local search from 1:2, 4:1: the last step %q on the board %q", s, label)
	}
	if !eval[bool](p, `[...document.querySelectorAll("#replay-legend .swatch")].some((s) => s.classList.contains("pinned"))`) {
		t.Errorf("local search: no legend for the fixed queens' squares")
	}
	// The cell searches do not start from a partial board: no field.
	p.set("search", "cell")
	eval[bool](p, `document.getElementById("search").dispatchEvent(new Event("change")) || true`)
	if p.visible("trace-fix") || p.visible("fix-edit") {
		t.Errorf("cell: a custom start is offered")
	}
}
