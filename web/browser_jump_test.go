package web

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Navigation at scale (issue 41): the player jumps to the next solution, start, restart or
// dead end of the search replayed, and keeps its speed in the address.

// jump clicks a jump button and returns the position the replay went to.
func (p *page) jump(kind string) int {
	p.t.Helper()
	p.click("#jump-" + kind)
	return int(p.counter("ev-index"))
}

// TestBrowserJumps: an n = 8 classic replay reaches its first solution with one click
// (event 982: at 21 events a second, the speed it opens with, 47 seconds); every solution of
// n = 6 in turn; the Las Vegas hybrid's next start and next failed start; the row DFS's
// next dead end; buttons a search has no moment of are hidden.
func TestBrowserJumps(t *testing.T) {
	p := openPage(t)
	tr := loadReplay[traceResponse](p, "classic", map[string]string{"trace-n": "8", "until": "first"}, "/api/trace?search=classic&n=8&until=first")
	sol := slices.IndexFunc(tr.Events, func(e []int32) bool { return e[0] == evSolution })
	if sol < 900 {
		t.Fatalf("the first solution of n = 8 is event %d: too near to show the jump", sol+1)
	}
	start := time.Now()
	if at := p.jump("solution"); at != sol+1 {
		t.Errorf("next solution went to event %d, the first solution is event %d", at, sol+1)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the jump to the first solution took %v", d)
	}
	if s := p.text("last-event"); !strings.HasPrefix(s, "all 8 rows hold a queen: solution 1") || p.counter("solutions") != 1 {
		t.Errorf("at the first solution: %q, %d solutions", s, p.counter("solutions"))
	}
	if !eval[bool](p, `document.getElementById("jump-solution").disabled`) || p.visible("jump-start") || !p.visible("jump-deadend") {
		t.Error("after the only solution of the replay, next solution is enabled, or next start shown, or next dead end hidden")
	}

	// Every solution of n = 6 in turn, then none.
	tr = loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "all"}, "/api/trace?search=row&n=6&until=all")
	var sols []int
	for i, e := range tr.Events {
		if e[0] == evSolution {
			sols = append(sols, i+1)
		}
	}
	for k, at := range sols {
		if got := p.jump("solution"); got != at || p.counter("solutions") != int64(k+1) {
			t.Errorf("next solution %d: event %d, %d solutions; want event %d", k+1, got, p.counter("solutions"), at)
		}
	}
	if !eval[bool](p, `document.getElementById("jump-solution").disabled`) {
		t.Error("next solution is enabled after the last")
	}
	// The next dead end: a step back that is not the return from a solution.
	p.stepTo(0)
	at := p.jump("deadend")
	if e := tr.Events[at-1]; e[0] != evRemove || tr.Events[at-2][0] == evSolution || !strings.HasPrefix(p.text("last-event"), "no column left in row") {
		t.Errorf("next dead end: event %d %v, %q", at, e, p.text("last-event"))
	}

	// The Las Vegas hybrid: starts, failed starts.
	lv := loadReplay[lasVegasTrace](p, "lasvegas-row", map[string]string{"trace-n": "8", "trace-m": "6", "trace-seed": "9"}, "/api/trace?search=lasvegas&variant=row&n=8&m=6&seed=9")
	for k := int64(1); k <= 3; k++ {
		at := p.jump("start")
		if lv.Kinds[lv.Events[at-1][0]] != "start" || p.counter("starts") != k || !strings.HasPrefix(p.text("last-event"), fmt.Sprintf("start %d: ", k)) {
			t.Errorf("next start %d: event %d (%s), %d starts, %q", k, at, lv.Kinds[lv.Events[at-1][0]], p.counter("starts"), p.text("last-event"))
		}
	}
	at = p.jump("deadend")
	if k := lv.Kinds[lv.Events[at-1][0]]; (k != "deadend" && k != "fail") || !strings.Contains(p.text("last-event"), "fails") {
		t.Errorf("next dead end of the Las Vegas hybrid: event %d (%s), %q", at, k, p.text("last-event"))
	}
	if p.text("jump-start") != "next start »" {
		t.Errorf("the start button says %q", p.text("jump-start"))
	}
	p.jump("solution")
	if !strings.HasPrefix(p.text("last-event"), "solved in start") {
		t.Errorf("the Las Vegas hybrid's solution: %q", p.text("last-event"))
	}

	// The construction has one moment, its end; the buttons it has not are hidden.
	loadReplay[constructTrace](p, "construct", map[string]string{"trace-n": "10"}, "/api/trace?search=construct&n=10")
	if p.visible("jump-start") || p.visible("jump-deadend") || !p.visible("jump-solution") {
		t.Error("the construction shows a jump it has no moment of")
	}
	p.setLang("zh")
	if s := p.text("jump-solution"); !strings.ContainsFunc(s, isHan) {
		t.Errorf("the jump in Chinese: %q", s)
	}
	p.setLang("en")
}

// TestBrowserSpeedAddress: the player's speed is kept in the address and read from it.
func TestBrowserSpeedAddress(t *testing.T) {
	p := openPage(t)
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=row&n=6&until=first")
	eval[bool](p, `(() => { const s = document.getElementById("speed"); s.value = 80; s.dispatchEvent(new Event("input")); s.dispatchEvent(new Event("change")); return true })()`)
	v, _ := url.ParseQuery(strings.TrimPrefix(eval[string](p, `location.search`), "?"))
	if v.Get("speed") != "80" {
		t.Fatalf("the address after the speed is set to 80: %v", v)
	}
	text := p.text("speed-text")
	p.open(chromedp.Reload())
	if s := eval[string](p, `document.getElementById("speed").value`); s != "80" || p.text("speed-text") != text {
		t.Errorf("after a reload the speed is %s (%q), before 80 (%q)", s, p.text("speed-text"), text)
	}
	p.navigate("/?lang=en&panel=replay&search=row&n=6&until=first&event=3&speed=100")
	if s := eval[string](p, `document.getElementById("speed").value`); s != "100" || p.text("speed-text") != "1995 events/s" {
		t.Errorf("speed=100 in the address: the slider at %s, %q", s, p.text("speed-text"))
	}
	// The default is not written.
	p.navigate("/?lang=en&panel=replay&search=row&n=6&until=first&event=3")
	if s := eval[string](p, `document.getElementById("speed").value`); s != "40" || strings.Contains(eval[string](p, `location.search`), "speed") {
		t.Errorf("without speed: the slider at %s, the address %s", s, eval[string](p, `location.search`))
	}
}
