package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The search's shape (issue 41): beside the program of a backtracking search, its call
// stack, derived from the events: a queen placed is a call that called the next, classic's
// Place on top while it compares.

// wantStack is the call stack after the first i events of a teaching search's trace, the
// first call first, each "call binding" as the page writes it: classic's Backtrack(t)
// with x[t] = column, the row DFS's dfs(u) with its j, the cell searches' dfs(pos, cnt)
// with the square x, y of their loop. The last call binds the event's square when the
// event is its own (a square tried, a queen removed: classic sets x[t] = 0); while
// classic's Place compares (or returns false), Place(k) is on top with the j compared.
func wantStack(search string, n int, events [][]int32, i int) []string {
	cols := make([]int32, n)
	for r := range cols {
		cols[r] = -1
	}
	var lastJ int32
	for _, e := range events[:i] {
		switch e[0] {
		case evPlace:
			cols[e[1]-1] = e[2] - 1
		case evRemove:
			cols[e[1]-1] = -1
		case evCompare:
			lastJ = e[3]
		}
	}
	cell := search == "cell" || search == "cellprune"
	name := map[string]string{"classic": "Backtrack", "row": "dfs", "cell": "dfs", "cellprune": "dfs"}[search]
	bind := func(r, c int32) string {
		switch search {
		case "classic":
			return fmt.Sprintf("x[%d] = %d", r, c)
		case "row":
			return fmt.Sprintf("j = %d", c)
		}
		return fmt.Sprintf("x = %d, y = %d", r, c)
	}
	call := func(pos, cnt int32) string {
		if cell {
			return fmt.Sprintf("%s(%d, %d)", name, pos, cnt)
		}
		return fmt.Sprintf("%s(%d)", name, cnt+1)
	}
	var frames []string
	var pos, cnt int32
	for r := int32(0); r < int32(n); r++ {
		if cols[r] < 0 {
			continue
		}
		frames = append(frames, call(pos, cnt)+" "+bind(r+1, cols[r]+1))
		pos = r*int32(n) + cols[r] + 1
		cnt++
	}
	top := call(pos, cnt)
	var e []int32
	if i > 0 {
		e = events[i-1]
	}
	if e != nil && (e[0] == evRemove || e[0] == evConflict || e[0] == evCompare) {
		c := e[2]
		if e[0] == evRemove && search == "classic" {
			c = 0
		}
		top += " " + bind(e[1], c)
	}
	frames = append(frames, top)
	if search == "classic" && e != nil && (e[0] == evConflict || e[0] == evCompare) {
		j := lastJ
		if e[0] == evCompare {
			j = e[3]
		}
		frames = append(frames, fmt.Sprintf("Place(%d) j = %d", e[1], j))
	}
	return frames
}

// wantLasVegasStack is the call stack of the Las Vegas hybrid after its first i events:
// its own call, and while it backtracks over the empty rows Backtrack(i) with x[r] = c
// per queen it placed, in the order of the rows, and the running call with the column
// tried (c = column) or the queen taken off (x[r] = 0).
func wantLasVegasStack(tr lasVegasTrace, i int) []string {
	board := make([]int32, tr.N)
	random := make([]bool, tr.N)
	bt := false
	for _, e := range tr.Events[:i] {
		switch tr.Kinds[e[0]] {
		case "start":
			bt = false
			for r := range board {
				board[r], random[r] = 0, false
			}
		case "draw", "random":
			board[e[1]-1], random[e[1]-1] = e[2], true
		case "backtrack":
			bt = true
		case "place":
			board[e[1]-1] = e[2]
		case "remove":
			board[e[1]-1] = 0
		case "fail", "solution":
			bt = false
		}
	}
	frames := []string{fmt.Sprintf("%s(%d, %d)", map[string]string{"row": "QueensLV", "cell": "LasVegas"}[tr.Variant], tr.N, tr.M)}
	if !bt {
		return frames
	}
	k := 1
	for r, c := range board {
		if c > 0 && !random[r] {
			frames = append(frames, fmt.Sprintf("Backtrack(%d) x[%d] = %d", k, r+1, c))
			k++
		}
	}
	top := fmt.Sprintf("Backtrack(%d)", k)
	if i > 0 {
		switch e := tr.Events[i-1]; tr.Kinds[e[0]] {
		case "conflict":
			top += fmt.Sprintf(" c = %d", e[2])
		case "remove":
			top += fmt.Sprintf(" x[%d] = 0", e[1])
		}
	}
	return append(frames, top)
}

// stack reads a lane's call stack ("" or "b-"): its frames, and which is marked running.
func (p *page) stack(prefix string) (frames []string, top int) {
	p.t.Helper()
	type result struct {
		Frames []string `json:"frames"`
		Top    []int    `json:"top"`
	}
	r := eval[result](p, fmt.Sprintf(`(() => {
		const lis = [...document.querySelectorAll("#%sstack li")];
		return { frames: lis.map((li) => li.textContent), top: lis.flatMap((li, i) => li.getAttribute("aria-current") === "true" ? [i] : []) };
	})()`, prefix))
	if len(r.Top) != 1 {
		return r.Frames, -1
	}
	return r.Frames, r.Top[0]
}

// checkStack checks a lane's call stack at the page's position against the events.
func checkStack(t *testing.T, p *page, prefix string, tr traceResponse, i int, where string) {
	t.Helper()
	want := wantStack(tr.Search, tr.N, tr.Events, i)
	got, top := p.stack(prefix)
	if !slices.Equal(got, want) || top != len(got)-1 || !p.visible(prefix+"stack") {
		t.Errorf("%s: %s at event %d: the stack shows %q (running %d, shown %v), the events imply %q", where, tr.Search, i, got, top, p.visible(prefix+"stack"), want)
	}
}

// TestBrowserCallStack: for each backtracking search, the call stack beside the program
// after chosen events (the start, the first steps, a comparison of classic's Place and
// the conflict it finds, a step back, a prune, a solution, the end), reached by the scrub
// bar, the back and forward buttons and the jumps, is the one the events imply, in
// English and in Chinese; two lanes side by side show each its own; the searches without
// a call stack show none.
func TestBrowserCallStack(t *testing.T) {
	p := openPage(t)
	for _, c := range searchCases[:4] {
		tr := loadReplay[traceResponse](p, c.choice, c.settings, c.query)
		// The moments to check: the first events, the first event of each kind, the middle
		// and the end.
		at := []int{0, 1, 2, 3, len(tr.Events) / 2, len(tr.Events)}
		for k := evPlace; k <= evCompare; k++ {
			if i := slices.IndexFunc(tr.Events, func(e []int32) bool { return e[0] == int32(k) }); i >= 0 {
				at = append(at, i+1, i+2)
			}
		}
		// A compare that attacks, and the conflict after it.
		if i := slices.IndexFunc(tr.Events, func(e []int32) bool { return e[0] == evCompare && e[5] == 1 && e[1] > 2 }); i >= 0 {
			at = append(at, i+1, i+2)
		}
		for _, i := range at {
			if i > len(tr.Events) {
				continue
			}
			p.stepTo(i)
			checkStack(t, p, "", tr, i, "scrub")
		}
		// Stepping back and forward, and a jump.
		p.stepTo(len(tr.Events) / 3)
		p.click("#step-back")
		checkStack(t, p, "", tr, len(tr.Events)/3-1, "back")
		p.click("#step-fwd")
		p.click("#step-fwd")
		checkStack(t, p, "", tr, len(tr.Events)/3+1, "forward")
		p.stepTo(0)
		for _, kind := range []string{"deadend", "solution"} {
			if !eval[bool](p, fmt.Sprintf(`document.getElementById("jump-%s").disabled`, kind)) {
				checkStack(t, p, "", tr, p.jump(kind), "the next "+kind)
			}
		}
		// In Chinese: the same frames (code), under a heading in Chinese.
		p.setLang("zh")
		i := len(tr.Events) / 2
		p.stepTo(i)
		checkStack(t, p, "", tr, i, "zh")
		if h := p.text("stack-title"); !strings.ContainsFunc(h, isHan) {
			t.Errorf("the call stack's heading in Chinese: %q", h)
		}
		if bad := englishWords(p); len(bad) > 0 {
			t.Errorf("%s in Chinese: English words %v", c.choice, bad)
		}
		p.setLang("en")
	}
	// Side by side: each lane its own stack.
	p.set("compare", "cellprune")
	eval[bool](p, `document.getElementById("compare").dispatchEvent(new Event("change")) || true`)
	a := loadReplay[traceResponse](p, "classic", map[string]string{"trace-n": "5", "until": "all"}, "/api/trace?search=classic&n=5&until=all")
	b := getJSON[traceResponse](p, "/api/trace?search=cellprune&n=5&until=all")
	for _, i := range []int{0, 7, 40, 41, 42, len(a.Events), len(b.Events) / 2} {
		p.slide("scrub", i)
		checkStack(t, p, "", a, min(i, len(a.Events)), "lane a")
		checkStack(t, p, "b-", b, min(i, len(b.Events)), "lane b")
	}
	// Each list is named by its own heading, for a screen reader.
	for _, prefix := range []string{"", "b-"} {
		if h := eval[string](p, fmt.Sprintf(`document.getElementById(document.getElementById(%q).getAttribute("aria-labelledby")).textContent`, prefix+"stack")); h != "The call stack, the running call last" {
			t.Errorf("lane %q: the call stack is named %q", prefix, h)
		}
	}
	p.set("compare", "")
	// The Las Vegas hybrid: its own call, and the backtracking's.
	for _, c := range searchCases[4:6] {
		lv := loadReplay[lasVegasTrace](p, c.choice, c.settings, c.query)
		at := []int{0, 1, len(lv.Events) / 2, len(lv.Events)}
		for _, kind := range []string{"backtrack", "place", "conflict", "remove", "fail"} {
			if i := slices.IndexFunc(lv.Events, func(e []int32) bool { return lv.Kinds[e[0]] == kind }); i >= 0 {
				at = append(at, i+1, i+2)
			}
		}
		for _, i := range at {
			if i > len(lv.Events) {
				continue
			}
			p.stepTo(i)
			want := wantLasVegasStack(lv, i)
			if got, top := p.stack(""); !slices.Equal(got, want) || top != len(got)-1 {
				t.Errorf("%s at event %d: the stack shows %q (running %d), the events imply %q", c.choice, i, got, top, want)
			}
		}
	}
	// The searches that do not recurse show no stack.
	loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "8", "trace-seed": "1", "check": "placed"}, "/api/trace?search=localsearch&n=8&seed=1&check=placed")
	p.stepTo(5)
	if p.visible("stack-box") {
		t.Error("the local search shows a call stack")
	}
}
