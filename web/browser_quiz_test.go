package web

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Predict the next step (issue 41): in quiz mode the page asks where the next queen goes
// (or which queen the local search swaps) before it shows it.

// asking reports whether the quiz asks a question.
func (p *page) asking() bool {
	p.t.Helper()
	return p.visible("quiz-box") && eval[string](p, `document.getElementById("replay-panel").dataset.quiz || ""`) == "asking"
}

// clickSquare clicks the square (r, c), 1-based, of the first lane's board of n.
func (p *page) clickSquare(n, r, c int) {
	p.t.Helper()
	p.do(chromedp.ScrollIntoView(chromedp.ID("replay-board")))
	type rect struct{ X, Y, W, H float64 }
	b := eval[rect](p, `(() => { const r = document.getElementById("replay-board").getBoundingClientRect(); return { X: r.left, Y: r.top, W: r.width, H: r.height } })()`)
	p.do(chromedp.MouseClickXY(b.X+(float64(c)-0.5)*b.W/float64(n), b.Y+(float64(r)-0.5)*b.H/float64(n)))
}

// TestBrowserQuiz: quiz mode off, forward shows each event; on, forward before a queen is
// placed asks first, and shows nothing until answered: a click on the right square is
// counted right, a wrong column typed is counted wrong, "show me" counts nothing, and each
// shows the step; play stops at each question; the cell searches ask for the square, the
// local search for the queen swapped; the question in Chinese; quiz=1 in the address
// restores the mode.
func TestBrowserQuiz(t *testing.T) {
	p := openPage(t)
	tr := loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "all"}, "/api/trace?search=row&n=6&until=all")
	places := func(from int) int { // the first place event at or after from (its index)
		for i := from; i < len(tr.Events); i++ {
			if tr.Events[i][0] == evPlace {
				return i
			}
		}
		t.Fatalf("no place event after %d", from)
		return -1
	}
	// Off: every forward is one event, no question.
	for i := 1; i <= 12; i++ {
		p.click("#step-fwd")
		if p.counter("ev-index") != int64(i) || p.asking() {
			t.Fatalf("quiz off: forward %d goes to %d, asking %v", i, p.counter("ev-index"), p.asking())
		}
	}
	if strings.Contains(eval[string](p, `location.search`), "quiz") {
		t.Errorf("quiz off: the address says %s", eval[string](p, `location.search`))
	}

	// On: kept in the address; forward asks before the first queen.
	p.stepTo(0)
	p.click("#quiz")
	if v, _ := url.ParseQuery(strings.TrimPrefix(eval[string](p, `location.search`), "?")); v.Get("quiz") != "1" {
		t.Errorf("quiz on: the address %v", v)
	}
	p.click("#step-fwd")
	e := tr.Events[0]
	if !p.asking() || p.counter("ev-index") != 0 || !strings.Contains(p.text("quiz-question"), fmt.Sprintf("row %d", e[1])) {
		t.Fatalf("quiz on, forward at event 0: asking %v, event %d, %q", p.asking(), p.counter("ev-index"), p.text("quiz-question"))
	}
	// A click on the right square: right, and the step shown.
	p.clickSquare(tr.N, int(e[1]), int(e[2]))
	if p.asking() || p.counter("ev-index") != 1 || eval[string](p, `document.getElementById("replay-panel").dataset.answer`) != "right" ||
		!strings.HasPrefix(p.text("quiz-result"), "Right") || !strings.Contains(p.text("quiz-result"), "1 right, 0 wrong") {
		t.Errorf("a right click: asking %v, event %d, %q", p.asking(), p.counter("ev-index"), p.text("quiz-result"))
	}
	// The events that place no queen go on without a question.
	next := places(1)
	for i := 1; i < next; i++ {
		p.click("#step-fwd")
	}
	if p.asking() || p.counter("ev-index") != int64(next) {
		t.Fatalf("forward to event %d: asking %v, at %d", next, p.asking(), p.counter("ev-index"))
	}
	// A wrong column typed, with the keyboard: → asks, the column typed, Enter answers.
	eval[bool](p, `(document.activeElement.blur(), true)`)
	p.do(chromedp.KeyEvent(kb.ArrowRight))
	e = tr.Events[next]
	if !p.asking() || p.counter("ev-index") != int64(next) {
		t.Fatalf("→ before event %d: asking %v, at %d", next+1, p.asking(), p.counter("ev-index"))
	}
	wrong := e[2]%int32(tr.N) + 1
	p.do(chromedp.SendKeys(chromedp.ID("quiz-col"), fmt.Sprint(wrong)+kb.Enter))
	p.waitFor(`!document.getElementById("replay-panel").dataset.quiz`)
	if p.counter("ev-index") != int64(next+1) || eval[string](p, `document.getElementById("replay-panel").dataset.answer`) != "wrong" ||
		!strings.Contains(p.text("quiz-result"), fmt.Sprintf("the queen goes to row %d, column %d", e[1], e[2])) || !strings.Contains(p.text("quiz-result"), "1 right, 1 wrong") {
		t.Errorf("a wrong column: event %d, %q", p.counter("ev-index"), p.text("quiz-result"))
	}
	// Play stops at the next question; show me shows the step and counts nothing.
	p.slide("speed", 100)
	p.click("#play")
	p.waitFor(`document.getElementById("replay-panel").dataset.quiz === "asking"`)
	at := int(p.counter("ev-index"))
	// The new question does not keep the last answer's verdict, only the score.
	if r := p.text("quiz-result"); r != "Score: 1 right, 1 wrong." {
		t.Errorf("asking again, the last result still reads %q", r)
	}
	if at != places(next+1) || eval[string](p, `document.getElementById("replay-panel").dataset.state`) != "paused" {
		t.Errorf("play stopped at event %d (%s), the next queen is event %d", at, eval[string](p, `document.getElementById("replay-panel").dataset.state`), places(next+1)+1)
	}
	// In Chinese, the question and the controls.
	p.setLang("zh")
	if q := p.text("quiz-question"); !strings.ContainsFunc(q, isHan) || !strings.Contains(q, fmt.Sprintf("第 %d 行", tr.Events[at][1])) {
		t.Errorf("the question in Chinese: %q", q)
	}
	if bad := englishWords(p); len(bad) > 0 {
		t.Errorf("the quiz in Chinese: English words %v", bad)
	}
	p.setLang("en")
	p.click("#quiz-show")
	if p.asking() || p.counter("ev-index") != int64(at+1) || !strings.Contains(p.text("quiz-result"), "1 right, 1 wrong") {
		t.Errorf("show me: asking %v, event %d, %q", p.asking(), p.counter("ev-index"), p.text("quiz-result"))
	}

	// The address restores the mode.
	p.navigate("/?lang=en&panel=replay&search=row&n=6&until=all&event=0&quiz=1")
	if !eval[bool](p, `document.getElementById("quiz").checked`) {
		t.Fatal("quiz=1: the mode is off")
	}
	p.click("#step-fwd")
	if !p.asking() || p.counter("ev-index") != 0 {
		t.Errorf("quiz=1: forward does not ask (asking %v, event %d)", p.asking(), p.counter("ev-index"))
	}
	p.navigate("/?lang=en&panel=replay&search=row&n=6&until=all&event=0")
	if eval[bool](p, `document.getElementById("quiz").checked`) {
		t.Error("without quiz=1 the mode is on")
	}

	// A cell search asks for the square: row and column typed.
	p.click("#quiz")
	cell := loadReplay[traceResponse](p, "cell", map[string]string{"trace-n": "5", "until": "first"}, "/api/trace?search=cell&n=5&until=first")
	i := slices.IndexFunc(cell.Events, func(e []int32) bool { return e[0] == evPlace && e[1] > 1 })
	p.stepTo(i)
	p.click("#step-fwd")
	if !p.asking() || !strings.Contains(p.text("quiz-question"), "row and column") {
		t.Fatalf("the cell search before event %d: asking %v, %q", i+1, p.asking(), p.text("quiz-question"))
	}
	p.set("quiz-row", fmt.Sprint(cell.Events[i][1]))
	p.set("quiz-col", fmt.Sprint(cell.Events[i][2]))
	p.click("#quiz-answer")
	if p.counter("ev-index") != int64(i+1) || !strings.HasPrefix(p.text("quiz-result"), "Right") {
		t.Errorf("the cell search: event %d, %q", p.counter("ev-index"), p.text("quiz-result"))
	}

	// Classic backtracking asks before Place compares the square with the queens above,
	// the last comparison saying that none attacks it; the answer shows the queen placed.
	cl := loadReplay[traceResponse](p, "classic", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=classic&n=6&until=first")
	i = slices.IndexFunc(cl.Events, func(e []int32) bool { return e[0] == evPlace && e[1] >= 3 })
	run := i
	for run > 0 && cl.Events[run-1][0] == evCompare && cl.Events[run-1][1] == cl.Events[i][1] && cl.Events[run-1][2] == cl.Events[i][2] {
		run--
	}
	if run >= i-1 {
		t.Fatalf("classic: the place event %d %v follows no comparisons", i, cl.Events[i])
	}
	p.stepTo(run)
	p.click("#step-fwd")
	if !p.asking() || p.counter("ev-index") != int64(run) {
		t.Fatalf("classic, before the comparisons of %v: asking %v, event %d", cl.Events[i], p.asking(), p.counter("ev-index"))
	}
	p.stepTo(run + 1) // within the comparisons, too
	p.click("#step-fwd")
	if !p.asking() || p.counter("ev-index") != int64(run+1) {
		t.Fatalf("classic, within the comparisons of %v: asking %v, event %d", cl.Events[i], p.asking(), p.counter("ev-index"))
	}
	p.set("quiz-col", fmt.Sprint(cl.Events[i][2]))
	p.click("#quiz-answer")
	if p.counter("ev-index") != int64(i+1) || !strings.HasPrefix(p.text("quiz-result"), "Right") {
		t.Errorf("classic: event %d, %q; the queen is event %d", p.counter("ev-index"), p.text("quiz-result"), i+1)
	}

	// The local search asks which queen a swap takes.
	ls := loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "12", "trace-seed": "3", "check": "placed"}, "/api/trace?search=localsearch&n=12&seed=3&check=placed")
	swap := slices.Index(ls.Kinds, "swap")
	i = slices.IndexFunc(ls.Events, func(e []int32) bool { return int(e[0]) == swap && e[3] == 1 })
	if i < 0 {
		t.Fatal("no swap in the local search of 12, seed 3")
	}
	p.stepTo(i)
	p.click("#step-fwd")
	if !p.asking() || !strings.Contains(p.text("quiz-question"), fmt.Sprintf("row %d", ls.Events[i][1])) || p.visible("quiz-col") {
		t.Fatalf("the local search before its swap %v: asking %v, %q", ls.Events[i], p.asking(), p.text("quiz-question"))
	}
	p.clickSquare(ls.N, int(ls.Events[i][2]), 1)
	if p.counter("ev-index") != int64(i+1) || !strings.HasPrefix(p.text("quiz-result"), "Right") {
		t.Errorf("the local search's swap: event %d, %q", p.counter("ev-index"), p.text("quiz-result"))
	}
}

// TestBrowserQuizNotForConstruction: the construction places its queens without a choice,
// so the quiz is not offered beside its replay; it is again for a search.
func TestBrowserQuizNotForConstruction(t *testing.T) {
	p := openPage(t)
	loadReplay[traceResponse](p, "construct", map[string]string{"trace-n": "9"}, "/api/trace?search=construct&n=9")
	if p.visible("quiz-label") {
		t.Errorf("the construction's replay offers the quiz")
	}
	loadReplay[traceResponse](p, "row", map[string]string{"trace-n": "6", "until": "first"}, "/api/trace?search=row&n=6&until=first")
	if !p.visible("quiz-label") {
		t.Errorf("the row DFS's replay does not offer the quiz")
	}
}
