package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserConcept (issue 41, the concept panel): beside the replay, a collapsible
// panel says what the chosen search does, what it costs and when to use it, with the
// section of docs/algorithms.md the API names; it follows the search menu and the
// language; it opens and closes from the keyboard; the Las Vegas hybrid's names its U
// curve, the local search's its linear growth.
func TestBrowserConcept(t *testing.T) {
	p := openPage(t)
	p.panel("replay")
	if eval[bool](p, `document.getElementById("concept").open`) || eval[bool](p, `document.getElementById("concept-what").checkVisibility()`) {
		t.Error("the concept panel is open before it is asked for")
	}
	// Opened from the keyboard, as a screen reader's user does.
	p.do(chromedp.Focus(chromedp.ID("concept-summary")))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.getElementById("concept").open`)
	if !eval[bool](p, `document.getElementById("concept-what").checkVisibility()`) {
		t.Fatal("the concept panel, opened, shows nothing")
	}
	type seen struct{ what, cost, when string }
	texts := map[string]seen{}
	for _, c := range searchCases {
		p.set("search", c.choice)
		eval[bool](p, `document.getElementById("search").dispatchEvent(new Event("change")) || true`)
		for _, l := range []string{"en", "zh"} {
			p.setLang(l)
			s := seen{p.text("concept-what"), p.text("concept-cost"), p.text("concept-when")}
			if s.what == "" || s.cost == "" || s.when == "" {
				t.Errorf("%s in %s: an empty part: %+v", c.choice, l, s)
			}
			if l == "zh" && !(strings.ContainsFunc(s.what, isHan) && strings.ContainsFunc(s.cost, isHan) && strings.ContainsFunc(s.when, isHan)) {
				t.Errorf("%s in Chinese: %+v", c.choice, s)
			}
			option := eval[string](p, `document.getElementById("search").selectedOptions[0].textContent`)
			if sum := p.text("concept-summary"); !strings.Contains(sum, option) {
				t.Errorf("%s in %s: the panel is about %q, the menu says %q", c.choice, l, sum, option)
			}
			texts[c.choice+"/"+l] = s
		}
		p.setLang("en")
		tr := getJSON[trace](p, c.query)
		if m := p.text("concept-more"); !strings.Contains(m, "§"+tr.Section) {
			t.Errorf("%s: %q, the API's section is %s", c.choice, m, tr.Section)
		}
	}
	// Each search its own text (the two Las Vegas variants share theirs).
	for a, x := range texts {
		for b, y := range texts {
			if a < b && x == y && !(strings.HasPrefix(a, "lasvegas") && strings.HasPrefix(b, "lasvegas")) {
				t.Errorf("%s and %s say the same: %+v", a, b, x)
			}
		}
	}
	for _, c := range []struct{ key, en, zh string }{
		{"lasvegas-row/", "U curve", "U 形曲线"},
		{"localsearch/", "linearly", "线性"},
	} {
		if s := texts[c.key+"en"].cost; !strings.Contains(s, c.en) {
			t.Errorf("%s cost in English: %q lacks %q", c.key, s, c.en)
		}
		if s := texts[c.key+"zh"].cost; !strings.Contains(s, c.zh) {
			t.Errorf("%s cost in Chinese: %q lacks %q", c.key, s, c.zh)
		}
	}
	// The address opens the replay with the concept of its search.
	p.navigate("/?lang=zh&panel=replay&search=construct&n=8")
	if s := p.text("concept-summary"); !strings.Contains(s, "构造法") {
		t.Errorf("the concept of the construction, from the address: %q", s)
	}
	p.do(chromedp.Focus(chromedp.ID("concept-summary")))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`document.getElementById("concept").open`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`!document.getElementById("concept").open`)
}
