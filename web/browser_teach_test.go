package web

import (
	"context"
	"fmt"
	"image"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/nqueens/nqueens/lab"
)

// The browser tests of the teaching page (issue 31): the program beside every replay with
// the line of each event lit (from the events), the sentences, two searches side by side,
// the state in the address, both languages, the keys and the labels; and a search sent
// only its own parameters (issue 30, item 3).

// trace is what every replay answers, for the tests that read its events and program.
type trace struct {
	traceHead
	Seed   uint64 `json:"seed"`
	Nodes  int64  `json:"nodes"`
	Checks int64  `json:"checks"`
}

// navigate opens a path of the test server in the tab and waits until the page is ready.
func (p *page) navigate(path string) {
	p.t.Helper()
	p.open(chromedp.Navigate(p.url + path))
}

// open loads a page (a navigation, a reload) and waits until it is ready. A poll that
// starts while the old document goes away finds no context to run in: it is polled
// again in the new one.
func (p *page) open(load chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	p.do(load)
	for try := 0; ; try++ {
		ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`document.body && document.body.dataset.ready === "true"`, chromedp.WithPollingTimeout(20*time.Second)))
		cancel()
		if err == nil {
			return
		}
		if try == 5 || !strings.Contains(err.Error(), "context") {
			p.t.Fatalf("the page did not get ready: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lit returns the line lit in a lane's program ("" or "b-"), 0 for none, and checks that
// one line at most is lit.
func (p *page) lit(prefix string) int {
	p.t.Helper()
	v := eval[[]int](p, fmt.Sprintf(`[...document.querySelectorAll("#%scode li.lit")].map((li) => Number(li.dataset.line))`, prefix))
	switch len(v) {
	case 0:
		return 0
	case 1:
		return v[0]
	}
	p.t.Fatalf("%d lines lit: %v", len(v), v)
	return 0
}

// search is a choice of the search menu, its settings on the page and its API request.
type searchCase struct {
	choice   string
	settings map[string]string
	query    string
}

var searchCases = []searchCase{
	{"classic", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=classic&n=6&until=first"},
	{"row", map[string]string{"trace-n": "6", "until": "all"}, "/api/trace?search=row&n=6&until=all"},
	{"cell", map[string]string{"trace-n": "5", "until": "first"}, "/api/trace?search=cell&n=5&until=first"},
	{"cellprune", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=cellprune&n=6&until=first"},
	{"lasvegas-row", map[string]string{"trace-n": "8", "trace-m": "3", "trace-seed": "2"}, "/api/trace?search=lasvegas&variant=row&n=8&m=3&seed=2"},
	{"lasvegas-cell", map[string]string{"trace-n": "6", "trace-m": "2", "trace-seed": "1"}, "/api/trace?search=lasvegas&variant=cell&n=6&m=2&seed=1"},
	{"localsearch", map[string]string{"trace-n": "6", "trace-seed": "1", "check": "scan"}, "/api/trace?search=localsearch&n=6&seed=1&check=scan"},
	{"construct", map[string]string{"trace-n": "9"}, "/api/trace?search=construct&n=9"},
}

// TestBrowserCode (issue 31, target 1): for each of the seven searches (both variants of
// the Las Vegas hybrid), the page lays out the program of the API's answer, line for line,
// and after each event lights the line the event carries, one of that event's kind; the
// live variables are listed under it. The lines are the engine's: TestTraceLines checks
// that they are a path through the program.
func TestBrowserCode(t *testing.T) {
	p := openPage(t)
	for _, c := range searchCases {
		tr := loadReplay[trace](p, c.choice, c.settings, c.query)
		got := eval[[]string](p, `[...document.querySelectorAll("#code li .code-text")].map((e) => e.textContent)`)
		var want []string
		for _, l := range tr.Code.Lines {
			want = append(want, l.Code)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the page shows the program %q, the API %q", c.choice, got, want)
		}
		if l := p.lit(""); l != 0 {
			t.Errorf("%s: line %d lit before the first event", c.choice, l)
		}
		n := len(tr.Events)
		for _, i := range []int{1, 2, 3, 4, 5, n / 3, n / 2, n - 1, n} {
			if i < 1 || i > n {
				continue
			}
			p.stepTo(i)
			e := tr.Events[i-1]
			line := int(e[len(e)-1])
			if l := p.lit(""); l != line {
				t.Errorf("%s event %d %v: line %d lit, the event's is %d", c.choice, i, e, l, line)
			}
			if k := eval[string](p, `document.querySelector("#code li.lit").dataset.event`); k != tr.Kinds[e[0]] {
				t.Errorf("%s event %d: the lit line reports %q, the event is a %q", c.choice, i, k, tr.Kinds[e[0]])
			}
			if vars := eval[int](p, `document.getElementById("vars").children.length`); vars == 0 {
				t.Errorf("%s event %d: no variables", c.choice, i)
			}
			if s := p.text("last-event"); s == "" || s == "–" {
				t.Errorf("%s event %d: no sentence", c.choice, i)
			}
		}
	}
}

// TestBrowserSentences (target 2): the sentence under the board says what the event did
// and why: the queen that attacks a square (found as the search's check finds it), the
// row it goes back from, the node pruned, the collisions before and after a swap.
func TestBrowserSentences(t *testing.T) {
	p := openPage(t)
	// The classic search: the first conflict on a diagonal, by the queen Place finds first.
	tr := loadReplay[traceResponse](p, "classic", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=classic&n=6&until=first")
	board := emptyBoard(6)
	diag, back := 0, 0
	for i, e := range tr.Events {
		switch e[0] {
		case evPlace:
			board[e[1]-1] = e[2] - 1
		case evRemove:
			board[e[1]-1] = -1
			if back == 0 {
				back = i + 1
				p.stepTo(back)
				if s, w := p.text("last-event"), fmt.Sprintf("no column left in row %d: back to row %d, the queen leaves column %d", e[1]+1, e[1], e[2]); s != w {
					t.Errorf("event %d %v says %q, want %q", back, e, s, w)
				}
			}
		case evConflict:
			r, c := e[1]-1, e[2]-1
			for j := int32(0); j < r && diag == 0; j++ {
				if board[j] == c {
					break // the column comes first: not the case looked for
				}
				if d := board[j] - c; d == r-j || d == j-r {
					diag = i + 1
					next := fmt.Sprintf("try column %d", c+2)
					if c == 5 {
						next = fmt.Sprintf("no column left in row %d, back to row %d", r+1, r)
					}
					p.stepTo(diag)
					if s, w := p.text("last-event"), fmt.Sprintf("row %d, column %d is attacked by the queen at row %d, column %d on a diagonal: %s", r+1, c+1, j+1, board[j]+1, next); s != w {
						t.Errorf("event %d %v says %q, want %q", diag, e, s, w)
					}
				}
			}
		}
	}
	if diag == 0 || back == 0 {
		t.Fatalf("no conflict on a diagonal (%d) or no removal (%d)", diag, back)
	}

	// The cell search with the row pruning: a pruned node names its empty row.
	tr = loadReplay[traceResponse](p, "cellprune", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=cellprune&n=6&until=first")
	i := slices.IndexFunc(tr.Events, func(e []int32) bool { return e[0] == evPrune })
	if i < 0 {
		t.Fatal("no prune event")
	}
	p.stepTo(i + 1)
	if s, w := p.text("last-event"), fmt.Sprintf("row %d is still empty and every cell after this one is below it: prune, go back", tr.Events[i][1]); s != w {
		t.Errorf("prune: %q, want %q", s, w)
	}

	// The local search: a kept swap, with the collisions before and after it.
	ls := loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "30", "trace-seed": "2", "check": "placed"}, "/api/trace?search=localsearch&n=30&seed=2&check=placed")
	i = slices.IndexFunc(ls.Events, func(e []int32) bool { return e[0] == lsSwap && e[3] == 1 })
	if i < 0 {
		t.Fatal("no kept swap")
	}
	before, after := localSearchAt(t, ls, i).collisions, localSearchAt(t, ls, i+1).collisions
	p.stepTo(i + 1)
	if s, w := p.text("last-event"), fmt.Sprintf("swap the queens of rows %d and %d: collisions %d → %d", ls.Events[i][1], ls.Events[i][2], before, after); s != w || after >= before {
		t.Errorf("swap: %q, want %q", s, w)
	}
	// A rejected attempt names the placed queen on its diagonal: the first the O(j)
	// scan meets, the last it compares.
	i = slices.IndexFunc(ls.Events, func(e []int32) bool { return e[0] == lsTry && e[3] == 0 })
	p.stepTo(i + 1)
	if s := p.text("last-event"); !strings.Contains(s, fmt.Sprintf("is on a diagonal of the queen of row %d: rejected", ls.Events[i][4])) {
		t.Errorf("a rejected attempt %v: %q", ls.Events[i], s)
	}

	// In Chinese.
	p.set("lang", "zh")
	eval[bool](p, `document.getElementById("lang").dispatchEvent(new Event("change")) || true`)
	if s := p.text("last-event"); !strings.Contains(s, "放弃") || !strings.Contains(s, "对角线") {
		t.Errorf("the sentence in Chinese: %q", s)
	}
}

// TestBrowserCompare (target 3): two searches side by side on the same n step together,
// each lane at the common position or at its end, their counters those of their own
// events; at the end they are the lab's table for n (the row DFS against the cell DFS:
// the same solutions, 17 times the nodes). The O(1) check against the O(j) scan: the same
// attempts, the checks of each.
func TestBrowserCompare(t *testing.T) {
	p := openPage(t)
	p.panel("replay")
	p.set("compare", "cell")
	eval[bool](p, `document.getElementById("compare").dispatchEvent(new Event("change")) || true`)
	a := loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "all"}, "/api/trace?search=row&n=6&until=all")
	b := getJSON[traceResponse](p, "/api/trace?search=cell&n=6&until=all")
	if !p.visible("b-lane") || p.text("b-lane-title") != "cell DFS" || p.text("lane-title") != "row DFS, O(1) arrays" {
		t.Fatalf("the second lane: visible %v, titles %q and %q", p.visible("b-lane"), p.text("lane-title"), p.text("b-lane-title"))
	}
	check := func(pos int) {
		t.Helper()
		for _, l := range []struct {
			prefix string
			tr     traceResponse
		}{{"", a}, {"b-", b}} {
			i := min(pos, len(l.tr.Events))
			_, nodes, checks, sols := traceAt(l.tr, i)
			got := fmt.Sprintf("event %s nodes %s checks %s solutions %s", p.number(l.prefix+"ev-index"), p.number(l.prefix+"nodes"), p.number(l.prefix+"checks"), p.number(l.prefix+"solutions"))
			if w := fmt.Sprintf("event %d nodes %d checks %d solutions %d", i, nodes, checks, sols); got != w {
				t.Errorf("at %d, lane %q shows %q, want %q", pos, l.prefix, got, w)
			}
			if i > 0 {
				e := l.tr.Events[i-1]
				if line := p.lit(l.prefix); line != int(e[len(e)-1]) {
					t.Errorf("at %d, lane %q lights line %d, its event %d", pos, l.prefix, line, e[len(e)-1])
				}
			}
		}
	}
	if max := eval[int](p, `Number(document.getElementById("scrub").max)`); max != len(b.Events) {
		t.Errorf("the scrub bar goes to %d, the longer trace has %d events", max, len(b.Events))
	}
	for _, pos := range []int{1, 2, 3, 50, len(a.Events), len(a.Events) + 1, len(b.Events) / 2} {
		p.slide("scrub", pos)
		check(pos)
	}
	p.click("#step-fwd")
	check(len(b.Events)/2 + 1)
	// The README's picture: the row DFS at its third solution's return, the cell DFS
	// far behind.
	p.slide("scrub", 700)
	check(700)
	saveShot(t, p, "serve-compare.png", "replay-panel")
	p.slide("scrub", len(b.Events))
	check(len(b.Events))
	tab, err := lab.Backtrack(context.Background(), 6, lab.BacktrackOptions{Searches: []string{"row", "cell"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.number("nodes") != fmt.Sprint(tab.Rows[0].Nodes) || p.number("b-nodes") != fmt.Sprint(tab.Rows[1].Nodes) ||
		p.number("b-checks") != fmt.Sprint(tab.Rows[1].Checks) || p.number("solutions") != p.number("b-solutions") || tab.Rows[1].Nodes < 10*tab.Rows[0].Nodes {
		t.Errorf("at the end the lanes show %s and %s nodes, the lab %d and %d", p.number("nodes"), p.number("b-nodes"), tab.Rows[0].Nodes, tab.Rows[1].Nodes)
	}

	// The O(1) check against the O(j) scan, same seed: the same events, other checks.
	p.set("compare", "localsearch-scan")
	eval[bool](p, `document.getElementById("compare").dispatchEvent(new Event("change")) || true`)
	ls := loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "40", "trace-seed": "4", "check": "placed"},
		"/api/trace?search=localsearch&n=40&seed=4&check=placed")
	scan := getJSON[localSearchTrace](p, "/api/trace?search=localsearch&n=40&seed=4&check=scan")
	p.stepTo(len(ls.Events))
	if p.counter("attempts") != p.counter("b-attempts") || p.counter("checks") != ls.Checks || p.counter("b-checks") != scan.ScanChecks || scan.ScanChecks <= ls.Checks {
		t.Errorf("O(1) against O(j): attempts %d and %d, checks %d and %d; the API %d and %d", p.counter("attempts"), p.counter("b-attempts"),
			p.counter("checks"), p.counter("b-checks"), ls.Checks, scan.ScanChecks)
	}
	// Back to one lane.
	p.set("compare", "")
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "5"}, "/api/trace?search=row&n=5&until=all")
	if p.visible("b-lane") {
		t.Error("the second lane stays without a comparison")
	}
}

// TestBrowserAddress (target 4): the page's state is in the address: a reload shows the
// same replay at the same event (board, counters, lit line, sentence), back and forward
// go between the replays loaded, a link opened in another tab shows the same, and the
// copy-link control gives the address. The board's and the lab's settings too.
func TestBrowserAddress(t *testing.T) {
	p := openPage(t)
	loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "12", "trace-seed": "3", "check": "scan"}, "/api/trace?search=localsearch&n=12&seed=3&check=scan")
	p.stepTo(25)
	q := func() url.Values {
		v, _ := url.ParseQuery(strings.TrimPrefix(eval[string](p, `location.search`), "?"))
		return v
	}
	want := url.Values{"lang": {"en"}, "panel": {"replay"}, "search": {"localsearch"}, "n": {"12"}, "seed": {"3"}, "check": {"scan"}, "event": {"25"}}
	if got := q(); got.Encode() != want.Encode() {
		t.Fatalf("the address says %v, want %v", got, want)
	}
	moment := func() string {
		return fmt.Sprintf("%s | %s | line %d | checks %s | %s", p.text("ev-index"), p.text("last-event"), p.lit(""), p.text("checks"), p.text("replay-status"))
	}
	at25 := moment()
	img25, _ := p.shot("replay-board")
	link := eval[string](p, `location.href`)

	p.open(chromedp.Reload())
	if got := moment(); got != at25 || p.visible("board-panel") || !p.visible("replay-panel") {
		t.Errorf("after a reload: %q, before %q", got, at25)
	}
	img, _ := p.shot("replay-board")
	checkSame(t, img25, img, "the board after a reload")

	// Another replay, then back and forward.
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=row&n=6&until=first")
	p.stepTo(10)
	at10 := moment()
	eval[bool](p, `history.back() || true`)
	p.waitFor(`document.getElementById("search").value === "localsearch" && document.getElementById("ev-index").textContent === "25"`)
	if got := moment(); got != at25 {
		t.Errorf("back: %q, want %q", got, at25)
	}
	eval[bool](p, `history.forward() || true`)
	p.waitFor(`document.getElementById("search").value === "row" && document.getElementById("ev-index").textContent === "10"`)
	if got := moment(); got != at10 {
		t.Errorf("forward: %q, want %q", got, at10)
	}

	// The link pasted: a page opened afresh from it.
	p.open(chromedp.Navigate(link))
	if got := moment(); got != at25 {
		t.Errorf("the link opened afresh: %q, want %q", got, at25)
	}
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=row&n=6&until=first")
	p.stepTo(10)

	// Copy link: the address of this moment, shown (the clipboard may be refused headless).
	p.click("#copy-link")
	p.waitFor(`document.getElementById("link-status").textContent !== ""`)
	if v, href := eval[string](p, `document.getElementById("link").value`), eval[string](p, `location.href`); v != href || !strings.Contains(v, "event=10") {
		t.Errorf("the link field says %q, the address is %q", v, href)
	}

	// The board: a solve with its algorithm and seed, reloaded.
	p.panel("board")
	p.set("n", "10")
	p.set("algo", "localsearch")
	p.set("seed", "3")
	p.click("#solve")
	p.waitFor(`document.getElementById("board-status").textContent.includes("seed 3")`)
	cols := p.text("columns")
	if got := q(); got.Get("panel") != "board" || got.Get("n") != "10" || got.Get("algorithm") != "localsearch" || got.Get("seed") != "3" {
		t.Errorf("the board's address: %v", got)
	}
	p.open(chromedp.Reload())
	p.waitFor(`document.getElementById("board-status").textContent.includes("seed 3")`)
	if got := p.text("columns"); got != cols || !p.visible("board-panel") {
		t.Errorf("after a reload the board shows %q, before %q", got, cols)
	}
	// The lab: the U curve's settings.
	p.panel("lab")
	p.set("curve-n", "6")
	p.click("#curve-go")
	p.waitFor(`document.getElementById("ucurve-title").textContent.includes("n = 6")`)
	p.open(chromedp.Reload())
	if s := p.text("ucurve-title"); !strings.Contains(s, "n = 6") || !p.visible("lab-panel") {
		t.Errorf("after a reload the lab shows %q", s)
	}
}

// checkSame fails unless two screenshots are the same picture.
func checkSame(t *testing.T, a, b image.Image, what string) {
	t.Helper()
	if a.Bounds() != b.Bounds() {
		t.Errorf("%s: %v, before %v", what, b.Bounds(), a.Bounds())
		return
	}
	diff := 0
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%s: %d pixels differ", what, diff)
	}
}

var latinWord = regexp.MustCompile(`[A-Za-z]{2,}`)

// oneLanguage returns the strings of the page (texts, labels, titles, placeholders, the
// texts drawn on its canvases shown) that are not in the page's language: in Chinese, a
// string with a word in Latin letters and no Chinese character; in English, a string
// with a Chinese character. The program's code and variables, and the names of the
// program in a text (in <code>), are code, in neither; an
// element in a language of its own (the language menu) is skipped.
func oneLanguage(p *page, zh bool) []string {
	p.t.Helper()
	type item struct {
		Where string `json:"where"`
		S     string `json:"s"`
	}
	items := eval[[]item](p, `(() => {
		const out = [];
		const own = (el) => { const l = el.closest("[lang]"); return l && l !== document.documentElement; };
		const skip = (el) => el.closest("script, style, code, .code-text") || own(el);
		const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n; (n = walker.nextNode()); ) {
			const el = n.parentElement, s = n.textContent.trim();
			if (s && el && !skip(el)) out.push({ where: el.id || el.tagName, s });
		}
		for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [aria-valuetext], optgroup")) {
			if (skip(el)) continue;
			for (const a of ["aria-label", "title", "placeholder", "aria-valuetext", "label"]) {
				if (el.hasAttribute(a)) out.push({ where: (el.id || el.tagName) + " " + a, s: el.getAttribute(a) });
			}
		}
		for (const c of document.querySelectorAll("canvas")) {
			if (c.getClientRects().length === 0) continue;
			for (const s of canvasText[c.id] || []) out.push({ where: "canvas " + c.id, s });
		}
		out.push({ where: "title", s: document.title });
		return out;
	})()`)
	var bad []string
	for _, it := range items {
		han := strings.ContainsFunc(it.S, isHan)
		words := slices.DeleteFunc(latinWord.FindAllString(it.S, -1), func(w string) bool { return w == "nqueens" })
		if (zh && !han && len(words) > 0) || (!zh && han) {
			bad = append(bad, fmt.Sprintf("%s: %q", it.Where, it.S))
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// visitAll goes through the page as a student would: the board (drawn, and summarised),
// every search replayed and stepped, two side by side, the lab's figures; check is
// called at each stop.
func visitAll(p *page, check func(where string)) {
	p.t.Helper()
	p.panel("board")
	check("the board")
	p.set("n", "8")
	p.click("#next")
	p.waitFor(`document.getElementById("board-status").textContent.includes("2")`)
	p.click("#unique")
	p.waitFor(`document.getElementById("board-status").textContent.includes("12")`)
	check("the solutions in lexicographic order")
	p.click(`button[data-sym="rotate90"]`)
	p.waitFor(`document.getElementById("board-status").textContent.includes("90")`)
	check("a symmetry")
	p.click("#unique")
	p.set("n", "100")
	p.set("algo", "localsearch")
	p.set("seed", "1")
	p.click("#solve")
	p.waitFor(`getComputedStyle(document.getElementById("summary")).display !== "none"`)
	check("the summary of a board of 100")
	p.click(`#tab-replay`)
	for _, c := range searchCases {
		tr := loadReplay[trace](p, c.choice, c.settings, c.query)
		for _, i := range []int{0, 1, 2, len(tr.Events) / 2, len(tr.Events)} {
			p.stepTo(i)
			check(fmt.Sprintf("%s at event %d", c.choice, i))
		}
	}
	p.set("compare", "localsearch-placed")
	loadReplay[trace](p, "lasvegas-row", map[string]string{"trace-n": "8", "trace-m": "2", "trace-seed": "1"}, "/api/trace?search=lasvegas&variant=row&n=8&m=2&seed=1")
	p.stepTo(30)
	check("two lanes")
	p.set("compare", "")
	p.panel("lab")
	p.waitFor(`document.getElementById("curve-status").textContent !== ""`)
	check("the lab")
	p.click("#exact")
	p.set("trials", "3")
	p.set("curve-n", "12")
	p.click("#curve-go")
	p.waitFor(`document.getElementById("ucurve-title").textContent.includes("12")`)
	check("a sampled U curve")
	p.click("#exact")
}

// TestBrowserLanguages (target 5): every string of the page, the texts on its canvases and
// the comments of the programs are in Chinese with ?lang=zh and in English after the
// switch; the two dictionaries have the same words; the choice is remembered.
func TestBrowserLanguages(t *testing.T) {
	p := openPage(t)
	p.navigate("/?lang=zh")
	if l := eval[string](p, `document.documentElement.lang`); l != "zh-CN" {
		t.Errorf("html lang %q with ?lang=zh", l)
	}
	// The dictionaries: the same keys; a string in Chinese wherever the English has words.
	if bad := eval[[]string](p, `(() => {
		const bad = [];
		for (const k of new Set([...Object.keys(STR.en), ...Object.keys(STR.zh)])) {
			const e = STR.en[k], z = STR.zh[k];
			if (e === undefined || z === undefined || typeof e !== typeof z) bad.push(k + ": in one language only");
			else if (typeof e === "string" && /[A-Za-z]{2,}/.test(e) && !/\p{Script=Han}/u.test(z)) bad.push(k + ": " + z);
		}
		return bad;
	})()`); len(bad) > 0 {
		t.Errorf("the dictionaries differ: %v", bad)
	}
	visitAll(p, func(where string) {
		if bad := oneLanguage(p, true); len(bad) > 0 {
			t.Errorf("in Chinese, %s: %d strings in English only: %v", where, len(bad), bad)
		}
	})
	// The comments of the programs are the server's, in Chinese.
	if c := eval[string](p, `(document.getElementById("tab-replay").click(), document.querySelector("#code .comment").textContent)`); !strings.ContainsFunc(c, isHan) {
		t.Errorf("a comment of the program: %q", c)
	}
	p.panel("board")
	p.set("lang", "en")
	eval[bool](p, `document.getElementById("lang").dispatchEvent(new Event("change")) || true`)
	visitAll(p, func(where string) {
		if bad := oneLanguage(p, false); len(bad) > 0 {
			t.Errorf("in English, %s: %d strings with Chinese: %v", where, len(bad), bad)
		}
	})
	// Remembered: chosen on the page, the language stays without ?lang.
	p.set("lang", "zh")
	eval[bool](p, `document.getElementById("lang").dispatchEvent(new Event("change")) || true`)
	p.navigate("/")
	if l := eval[string](p, `document.documentElement.lang`); l != "zh-CN" || !strings.ContainsFunc(p.text("tab-board"), isHan) {
		t.Errorf("the language chosen is not remembered: html lang %q, tab %q", l, p.text("tab-board"))
	}
	p.navigate("/?lang=en")
	if l := eval[string](p, `document.documentElement.lang`); l != "en" {
		t.Errorf("?lang=en gives html lang %q", l)
	}
}

// TestBrowserKeys (target 6): ← and → step, space plays and pauses, Home and End go to
// the ends, anywhere on the replay panel but in a field; every control has a name a
// screen reader reads; each board is given as text (its canvas's label); the tabs go
// with the arrow keys.
func TestBrowserKeys(t *testing.T) {
	p := openPage(t)
	tr := loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=row&n=6&until=first")
	key := func(k string) {
		t.Helper()
		p.do(chromedp.KeyEvent(k))
	}
	eval[bool](p, `(document.activeElement.blur(), true)`)
	for range 3 {
		key(kb.ArrowRight)
	}
	if i := p.counter("ev-index"); i != 3 {
		t.Errorf("three → keys: event %d", i)
	}
	key(kb.ArrowLeft)
	if i := p.counter("ev-index"); i != 2 {
		t.Errorf("then ←: event %d", i)
	}
	key(kb.End)
	if i := p.counter("ev-index"); i != int64(len(tr.Events)) {
		t.Errorf("End: event %d of %d", i, len(tr.Events))
	}
	key(kb.Home)
	if i := p.counter("ev-index"); i != 0 {
		t.Errorf("Home: event %d", i)
	}
	key(" ")
	if s := eval[string](p, `document.getElementById("replay-panel").dataset.state`); s != "playing" {
		t.Errorf("space: %q", s)
	}
	key(" ")
	if s := eval[string](p, `document.getElementById("replay-panel").dataset.state`); s != "paused" {
		t.Errorf("space again: %q", s)
	}
	// In a field the keys are the field's.
	at := p.counter("ev-index")
	p.do(chromedp.Focus(chromedp.ID("trace-n")))
	key(kb.ArrowRight)
	key(kb.End)
	if i := p.counter("ev-index"); i != at {
		t.Errorf("keys in the field n moved the replay from %d to %d", at, i)
	}
	// The board as text: the queens of the replay at this event.
	p.stepTo(40)
	board := emptyBoard(6)
	for _, e := range tr.Events[:40] {
		switch e[0] {
		case evPlace:
			board[e[1]-1] = e[2] - 1
		case evRemove:
			board[e[1]-1] = -1
		}
	}
	var queens []string
	for r, c := range board {
		if c >= 0 {
			queens = append(queens, fmt.Sprintf("row %d column %d", r+1, c+1))
		}
	}
	if got, want := eval[string](p, `document.getElementById("replay-board").getAttribute("aria-label")`),
		fmt.Sprintf("a board of 6, %d queens: %s", len(queens), strings.Join(queens, ", ")); got != want {
		t.Errorf("the replay's board as text: %q, want %q", got, want)
	}
	// The tabs: ← and → go from one to the next.
	p.do(chromedp.Focus(chromedp.ID("tab-replay")))
	key(kb.ArrowRight)
	p.waitFor(`!document.getElementById("lab-panel").hidden && document.activeElement.id === "tab-lab"`)
	key(kb.ArrowLeft)
	key(kb.ArrowLeft)
	p.waitFor(`!document.getElementById("board-panel").hidden`)
	want := "a board of 8, 8 queens: row 1 column 1, row 2 column 5, row 3 column 8, row 4 column 6, row 5 column 3, row 6 column 7, row 7 column 2, row 8 column 4"
	if got := eval[string](p, `document.getElementById("board").getAttribute("aria-label")`); got != want {
		t.Errorf("the board as text: %q", got)
	}
	// Every control, on every panel, has a name.
	for _, panel := range []string{"board", "replay", "lab"} {
		p.panel(panel)
		if bad := eval[[]string](p, `[...document.querySelectorAll("input, select, button, canvas, [role=tab]")].filter((el) => el.getClientRects().length > 0).filter((el) => {
			const named = (s) => s && s.trim() !== "";
			if (named(el.getAttribute("aria-label"))) return false;
			if (el.getAttribute("aria-labelledby")) return !el.getAttribute("aria-labelledby").split(" ").every((id) => named(document.getElementById(id)?.textContent));
			if (el.tagName === "BUTTON" || el.getAttribute("role") === "tab") return !named(el.textContent);
			if (el.labels && [...el.labels].some((l) => named(l.textContent))) return false;
			return true;
		}).map((el) => el.tagName + "#" + el.id)`); len(bad) > 0 {
			t.Errorf("on the %s panel, controls without a name: %v", panel, bad)
		}
	}
}

// TestBrowserOwnParameters (issue 30, item 3): a seed typed for the local search is not
// sent to the construction (which refused it as an unknown parameter, and the old board
// stayed under the new title); an error empties the board, the counters and the program.
func TestBrowserOwnParameters(t *testing.T) {
	p := openPage(t)
	loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "8", "trace-seed": "5"}, "/api/trace?search=localsearch&n=8&seed=5&check=placed")
	p.stepTo(10)
	tr := loadReplay[constructTrace](p, "construct", nil, "/api/trace?search=construct&n=8")
	if s := p.text("replay-status"); !strings.HasPrefix(s, "explicit construction (Hoffman, Loessi & Moore), n = 8:") || strings.Contains(s, "seed") {
		t.Errorf("the construction after a seeded local search: %q", s)
	}
	if v, _ := url.ParseQuery(strings.TrimPrefix(eval[string](p, `location.search`), "?")); v.Has("seed") || v.Get("search") != "construct" {
		t.Errorf("the address of the construction: %v", v)
	}
	p.stepTo(len(tr.Events))
	// The Las Vegas hybrid's seed and m are not sent to a teaching search either.
	loadReplay[lasVegasTrace](p, "lasvegas-row", map[string]string{"trace-n": "8", "trace-m": "3", "trace-seed": "5"}, "/api/trace?search=lasvegas&variant=row&n=8&m=3&seed=5")
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6"}, "/api/trace?search=row&n=6&until=first")

	// An error: no board, no counters, no program of the searches before, side by side.
	p.set("compare", "cell")
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "5"}, "/api/trace?search=row&n=5&until=first")
	if !p.visible("b-lane") {
		t.Fatal("no second lane")
	}
	p.set("search", "construct")
	p.set("trace-n", "3")
	p.click("#load")
	p.waitFor(`document.getElementById("replay-status").classList.contains("error")`)
	if s := p.text("replay-status"); s != "n = 3: no solution exists" {
		t.Errorf("the error says %q", s)
	}
	img, _ := p.shot("replay-board")
	if k := countColour(img, colQueen); k > 0 || p.text("ev-total") != "0" || p.text("last-event") != "–" || p.visible("code-box") ||
		eval[int](p, `document.getElementById("counters").children.length`) != 1 || p.visible("b-lane") {
		t.Errorf("after the error: %d queen pixels, %s events, sentence %q, program shown %v", k, p.text("ev-total"), p.text("last-event"), p.visible("code-box"))
	}
	if !eval[bool](p, `document.getElementById("play").disabled && document.getElementById("step-fwd").disabled`) {
		t.Error("the player stays enabled with nothing to play")
	}
}

// TestBrowserPhoneTeach (target 7): on a phone's screen, 390×844, the replay with its
// program, two lanes, and each panel in Chinese fit the screen: no sideways scroll.
func TestBrowserPhoneTeach(t *testing.T) {
	const width = 390
	p := openPage(t, chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait,
		chromedp.EmulateTouch, chromedp.EmulateScale(1)))
	fits := func(when string) {
		t.Helper()
		if w := eval[int](p, `document.documentElement.scrollWidth`); w > width {
			t.Errorf("%s: the page is %d px wide on a %d px screen", when, w, width)
		}
		if bad := eval[[]string](p, `[...document.querySelectorAll("body *")].filter((e) => e.getClientRects().length > 0).filter((e) => {
			const r = e.getBoundingClientRect();
			return r.left < -0.5 || r.right > `+fmt.Sprint(width)+` + 0.5;
		}).map((e) => e.tagName + "#" + e.id + "." + e.className)`); len(bad) > 0 {
			t.Errorf("%s: past the screen: %v", when, bad)
		}
	}
	for _, l := range []string{"en", "zh"} {
		p.navigate("/?lang=" + l + "&panel=replay&search=classic&n=8&until=first&event=60")
		if p.counter("ev-index") != 60 || p.lit("") == 0 {
			t.Fatalf("%s: at event %d, line %d lit", l, p.counter("ev-index"), p.lit(""))
		}
		fits(l + ": the classic search with its program")
		saveShot(t, p, map[string]string{"en": "serve-phone.png", "zh": "serve-phone-zh.png"}[l], "replay-panel")
		p.navigate("/?lang=" + l + "&panel=replay&search=row&n=6&until=all&compare=cell&event=300")
		fits(l + ": two lanes")
		p.navigate("/?lang=" + l + "&panel=replay&search=localsearch&n=200&seed=1&check=placed&compare=localsearch-scan&event=500")
		fits(l + ": two local searches of 200 queens")
		for _, panel := range []string{"board", "lab"} {
			p.panel(panel)
			fits(l + ": the " + panel)
		}
	}
}

// TestBrowserScreenshots writes the README's pictures of the teaching page (with
// NQUEENS_SCREENSHOTS): the program lit mid-replay in English and in Chinese (the classic
// search of n = 8, five queens down, Place's loop finding the queen that attacks the
// square along a diagonal: line 10 of Place lit, Place(6) on top of the call stack), two
// searches side by side in Chinese, the board in Chinese.
func TestBrowserScreenshots(t *testing.T) {
	if os.Getenv("NQUEENS_SCREENSHOTS") == "" {
		t.Skip("NQUEENS_SCREENSHOTS is not set")
	}
	p := openPage(t)
	tr := getJSON[traceResponse](p, "/api/trace?search=classic&n=8&until=first")
	board, at := emptyBoard(8), 0
	for i, e := range tr.Events {
		if e[0] == evPlace {
			board[e[1]-1] = e[2] - 1
		} else if e[0] == evRemove {
			board[e[1]-1] = -1
		}
		if d, _, _, _ := traceAt(tr, i+1); d == 5 && e[0] == evCompare && e[5] == 1 && e[4] != e[2] {
			at = i + 1
			break
		}
	}
	for _, l := range []string{"en", "zh"} {
		p.navigate(fmt.Sprintf("/?lang=%s&panel=replay&search=classic&n=8&until=first&event=%d", l, at))
		if p.lit("") != 10 {
			t.Fatalf("event %d lights line %d", at, p.lit(""))
		}
		saveShot(t, p, map[string]string{"en": "serve-replay-code.png", "zh": "serve-replay-code-zh.png"}[l], "replay-panel")
	}
	p.navigate("/?lang=zh&panel=replay&search=localsearch&n=40&seed=4&check=placed&compare=localsearch-scan&event=120")
	saveShot(t, p, "serve-compare-zh.png", "replay-panel")
	p.navigate("/?lang=zh&panel=board")
	saveShot(t, p, "serve-board-zh.png", "board-panel")
}
