package web

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The rough edges of issue 41's review: English on the Chinese page (the play button, the
// server's errors), a sentence of the cell search that claimed a dead end right after a
// solution, no closing sentence when a search ends.

// properNames are the Latin words the Chinese page may show outside code: the names of
// people and of the program, and the keys a reader types.
var properNames = []string{"nqueens", "Sosic", "Gu", "Hoffman", "Loessi", "Moore", "Brassard", "Bratley", "Ctrl", "Home", "End", "mod"}

// englishWords returns the visible strings of the page that hold a word in Latin letters
// (two or more, not a proper name) outside code: text nodes shown and not in <code>,
// <pre> or the program's code, the labels, titles, placeholders and value texts of the
// controls shown, the texts drawn on the canvases shown. An element in a language of its
// own (the language menu's English) is skipped.
func englishWords(p *page) []string {
	p.t.Helper()
	type item struct {
		Where string `json:"where"`
		S     string `json:"s"`
	}
	items := eval[[]item](p, `(() => {
		const out = [];
		const own = (el) => { const l = el.closest("[lang]"); return l && l !== document.documentElement; };
		const shown = (el) => el.getClientRects().length > 0;
		const skip = (el) => el.closest("script, style, code, pre, .code-text") || own(el) || !shown(el);
		const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n; (n = walker.nextNode()); ) {
			const el = n.parentElement, s = n.textContent.trim();
			if (s && el && !skip(el) && !(el.tagName === "OPTION" && !el.selected)) out.push({ where: el.id || el.tagName, s });
		}
		for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [aria-valuetext], optgroup")) {
			if (el.tagName !== "OPTGROUP" && skip(el)) continue;
			if (el.tagName === "OPTGROUP" && own(el)) continue;
			for (const a of ["aria-label", "title", "placeholder", "aria-valuetext", "label"]) {
				if (el.hasAttribute(a)) out.push({ where: (el.id || el.tagName) + " " + a, s: el.getAttribute(a) });
			}
		}
		for (const c of document.querySelectorAll("canvas")) {
			if (!shown(c)) continue;
			for (const s of canvasText[c.id] || []) out.push({ where: "canvas " + c.id, s });
		}
		out.push({ where: "title", s: document.title });
		return out;
	})()`)
	var bad []string
	for _, it := range items {
		words := slices.DeleteFunc(latinWord.FindAllString(it.S, -1), func(w string) bool { return slices.Contains(properNames, w) })
		if len(words) > 0 {
			bad = append(bad, fmt.Sprintf("%s: %q", it.Where, it.S))
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// TestBrowserChineseOnly: with ?lang=zh the page shows no English word outside code, in
// its main states: the board, a replay of each search (its start, a step, its end), the
// lab, and the server's errors on each panel.
func TestBrowserChineseOnly(t *testing.T) {
	p := openPage(t)
	check := func(where string) {
		t.Helper()
		if bad := englishWords(p); len(bad) > 0 {
			t.Errorf("in Chinese, %s: English words: %v", where, bad)
		}
	}
	p.navigate("/?lang=zh")
	check("the board")
	p.navigate("/?lang=zh&panel=board&n=40&algorithm=localsearch&seed=2")
	check("a local search's board")
	for _, c := range searchCases {
		tr := loadReplay[trace](p, c.choice, c.settings, c.query)
		for _, i := range []int{0, 1, len(tr.Events) / 2, len(tr.Events)} {
			p.stepTo(i)
			check(fmt.Sprintf("%s at event %d", c.choice, i))
		}
	}
	// A custom start: its editor, and a replay from it (the row DFS, the local search).
	p.navigate("/?lang=zh&panel=replay&search=row&n=6&until=all&fix=1%3A2&event=5")
	check("a replay from a custom start")
	p.click("#fix-edit")
	check("the custom start's editor")
	p.navigate("/?lang=zh&panel=replay&search=localsearch&n=8&seed=3&check=placed&fix=1%3A2%2C+4%3A1&event=20")
	check("the local search from a custom start")
	p.panel("lab")
	p.waitFor(`document.getElementById("curve-status").textContent !== ""`)
	check("the lab")

	// The server's errors, each said in Chinese.
	for _, c := range []struct{ path, status string }{
		{"/?lang=zh&panel=board&n=3", "board-status"},
		{"/?lang=zh&panel=board&n=2&algorithm=construct", "board-status"},
		{"/?lang=zh&panel=replay&search=construct&n=3", "replay-status"},
		{"/?lang=zh&panel=replay&search=row&n=30&until=first", "replay-status"},
		{"/?lang=zh&panel=replay&search=lasvegas-row&n=6&m=9&seed=1", "replay-status"},
		{"/?lang=zh&panel=replay&search=localsearch&n=3&seed=1&check=placed", "replay-status"},
		{"/?lang=zh&panel=replay&search=localsearch&n=8&seed=1&check=placed&fix=1%3A1%2C2%3A2", "replay-status"},
		{"/?lang=zh&panel=lab&curve_n=50&variant=row&objective=explored&trials=3&bars_n=30&exact=1", "curve-status"},
		{"/?lang=zh&panel=lab&curve_n=50&variant=row&objective=explored&trials=3&bars_n=30&exact=1", "bars-status"},
	} {
		p.navigate(c.path)
		p.waitFor(fmt.Sprintf(`document.getElementById(%q).classList.contains("error")`, c.status))
		if s := p.text(c.status); !strings.ContainsFunc(s, isHan) {
			t.Errorf("%s: the error %q is not in Chinese", c.path, s)
		}
		check("the error of " + c.path)
	}
}

// TestBrowserPlayButton: the play button is in the page's language from the start, and
// after an error empties the replay (it stayed "▶ play" on the Chinese page).
func TestBrowserPlayButton(t *testing.T) {
	p := openPage(t)
	p.navigate("/?lang=zh&panel=replay&search=construct&n=3")
	p.waitFor(`document.getElementById("replay-status").classList.contains("error")`)
	if s := p.text("play"); s != "▶ 播放" {
		t.Errorf("after an error, the play button of the Chinese page says %q", s)
	}
	p.setLang("en")
	if s := p.text("play"); s != "▶ play" {
		t.Errorf("in English: %q", s)
	}
}

// TestBrowserServerErrors: the server's errors are said in the page's language, by their
// kind: in English the server's message, in Chinese its translation with the same
// numbers; a switch of language says them again.
func TestBrowserServerErrors(t *testing.T) {
	p := openPage(t)
	for _, c := range []struct{ path, status, en, zh string }{
		{"/?lang=zh&panel=board&n=3", "board-status", "n = 3: no solution exists", "n = 3：无解"},
		{"/?lang=zh&panel=replay&search=row&n=30&until=first", "replay-status", "n = 30 is more than this server allows for /api/trace (at most 12)", "n = 30 超出了本服务器的上限（最多 12）"},
		{"/?lang=zh&panel=replay&search=lasvegas-row&n=6&m=9&seed=1", "replay-status", "m = 9 random queens do not fit on 6 rows", "m = 9 个随机皇后放不进 6 行"},
	} {
		p.navigate(c.path)
		p.waitFor(fmt.Sprintf(`document.getElementById(%q).classList.contains("error")`, c.status))
		if s := p.text(c.status); !strings.HasPrefix(s, c.zh) {
			t.Errorf("%s: %q, want %q", c.path, s, c.zh)
		}
		p.setLang("en")
		if s := p.text(c.status); s != c.en {
			t.Errorf("%s in English: %q, want %q", c.path, s, c.en)
		}
	}
}

// TestBrowserCellAfterSolution: after a solution the cell searches go back from it, and
// say so; they said no queen fitted after the cell, a dead end, where the board had just
// been solved.
func TestBrowserCellAfterSolution(t *testing.T) {
	p := openPage(t)
	for _, search := range []string{"cell", "cellprune"} {
		tr := loadReplay[traceResponse](p, search, map[string]string{"trace-n": "5", "until": "all"}, "/api/trace?search="+search+"&n=5&until=all")
		found := 0
		for i, e := range tr.Events {
			if e[0] != evSolution || i+1 >= len(tr.Events) || tr.Events[i+1][0] != evRemove {
				continue
			}
			found++
			r, c := tr.Events[i+1][1], tr.Events[i+1][2]
			p.stepTo(i + 2)
			if s, w := p.text("last-event"), fmt.Sprintf("back from the solution: the queen leaves cell (%d, %d)", r, c); s != w {
				t.Errorf("%s event %d, after solution: %q, want %q", search, i+2, s, w)
			}
		}
		if found == 0 {
			t.Fatalf("%s: no removal after a solution", search)
		}
		// A removal that is a dead end still says so.
		i := slices.IndexFunc(tr.Events, func(e []int32) bool { return e[0] == evRemove })
		if tr.Events[i-1][0] != evSolution {
			p.stepTo(i + 1)
			if s := p.text("last-event"); !strings.HasPrefix(s, "no queen fits after cell") {
				t.Errorf("%s event %d, a dead end: %q", search, i+1, s)
			}
		}
	}
}

// endWords are the closing sentence's words in each language.
var endWords = map[string]*regexp.Regexp{"en": regexp.MustCompile(`\. The (search|replay|run|construction) is over: `), "zh": regexp.MustCompile(`。(搜索|回放|运行|构造)结束：`)}

// TestBrowserClosingSentence: at its last event each search's sentence says that it is
// over and how (every solution, the first, the event limit; the starts, the swaps), in
// both languages; before the end no sentence does.
func TestBrowserClosingSentence(t *testing.T) {
	p := openPage(t)
	for _, c := range searchCases {
		tr := loadReplay[trace](p, c.choice, c.settings, c.query)
		n := len(tr.Events)
		for _, l := range []string{"en", "zh"} {
			p.setLang(l)
			p.stepTo(n)
			if s := p.text("last-event"); !endWords[l].MatchString(s) {
				t.Errorf("%s in %s, at the end: %q has no closing sentence", c.choice, l, s)
			}
			p.stepTo(n - 1)
			if s := p.text("last-event"); endWords[l].MatchString(s) {
				t.Errorf("%s in %s, one event before the end: %q", c.choice, l, s)
			}
		}
		p.setLang("en")
		p.stepTo(n)
		s := p.text("last-event")
		switch {
		case c.choice == "row" && c.settings["until"] == "all":
			if w := fmt.Sprintf("The search is over: %d solutions, %s nodes, %s checks.", 4, grouped(tr.Nodes), grouped(tr.Checks)); !strings.HasSuffix(s, w) {
				t.Errorf("row, every solution: %q, want it to end %q", s, w)
			}
		case c.settings["until"] == "first":
			if !strings.Contains(s, "The replay is over: it stops at the first solution") {
				t.Errorf("%s until the first solution: %q", c.choice, s)
			}
		}
	}
}
