package web

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// The page's layout: on a phone nothing is wider than the screen, and on every screen
// the lab's points keep clear of the axes and of the canvas's edge.

var colSeries = []color.RGBA{{0x15, 0x65, 0xc0, 0xff}, {0xe0, 0x7b, 0x00, 0xff}}

// checkCurvePadding measures a screenshot of the U curve: the points and lines of the
// two series (in their colours) stay at least 16 pixels from the right edge of the
// canvas and 6 from the axes (the last point sat 12 pixels from the edge, the first on
// the y axis).
func checkCurvePadding(t *testing.T, p *page) {
	t.Helper()
	img, _ := p.shot("ucurve")
	b := img.Bounds()
	// The axes: dark grey (a line of 1 px is spread over two columns or rows).
	ink := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		r, g, b = r>>8, g>>8, b>>8
		return r < 170 && g < 170 && b < 170 && max(r, g, b)-min(r, g, b) < 24
	}
	// The y axis is the left half's column with the most ink; the x axis the bottom
	// half's row with the most.
	axisX, axisY, most := 0, 0, 0
	for x := b.Min.X; x < b.Min.X+b.Dx()/2; x++ {
		k := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if ink(x, y) {
				k++
			}
		}
		if k > most {
			axisX, most = x, k
		}
	}
	most = 0
	for y := b.Min.Y + b.Dy()/2; y < b.Max.Y; y++ {
		k := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if ink(x, y) {
				k++
			}
		}
		if k > most {
			axisY, most = y, k
		}
	}
	axisTop := b.Min.Y
	for !ink(axisX, axisTop) {
		axisTop++
	}
	minX, maxX, maxY := math.MaxInt, -1, -1
	for y := axisTop + 1; y < b.Max.Y; y++ { // below the legend
		for x := b.Min.X; x < b.Max.X; x++ {
			if near(img.At(x, y), colSeries[0]) || near(img.At(x, y), colSeries[1]) {
				minX, maxX, maxY = min(minX, x), max(maxX, x), max(maxY, y)
			}
		}
	}
	if maxX < 0 {
		t.Fatal("no point of the U curve in the screenshot")
	}
	right, left, bottom := b.Max.X-1-maxX, minX-axisX, axisY-maxY
	t.Logf("U curve %v: the points keep %d px from the right edge, %d from the y axis, %d from the x axis", b.Size(), right, left, bottom)
	if right < 16 || left < 6 || bottom < 6 {
		t.Errorf("the U curve's points come within %d px of the right edge (want 16), %d of the y axis, %d of the x axis (want 6)", right, left, bottom)
	}
}

// TestBrowserLab: the U curve's points are drawn clear of its axes and edges, for the
// exact table of n = 8 (drawn as the page opens) and a sampled sweep of n = 20.
func TestBrowserLab(t *testing.T) {
	p := openPage(t)
	p.panel("lab")
	checkCurvePadding(t, p)
	// The optimum the page names is the API's, by either objective: for n = 4 (row,
	// exact) the least nodes explored is m = 2, the least checks m = 0.
	p.set("curve-n", "4")
	for _, objective := range []string{"explored", "checks"} {
		want := getJSON[lab.LasVegasTable](p, "/api/lab/lasvegas?n=4&variant=row&exact=true&objective="+objective)
		p.set("objective", objective)
		p.click("#curve-go")
		status := fmt.Sprintf("optimum m = %d (least %s)", want.Rows[want.Optimum].M, objective)
		p.waitFor(fmt.Sprintf(`document.getElementById("curve-status").textContent.startsWith(%q)`, status))
	}
	p.set("objective", "explored")
	p.set("curve-n", "20")
	p.click("#exact")
	p.set("trials", "5")
	p.click("#curve-go")
	p.waitFor(`document.getElementById("curve-status").textContent.includes("means of 5 runs")`)
	if s := p.text("ucurve-title"); !strings.Contains(s, "n = 20") {
		t.Errorf("the U curve's title is %q", s)
	}
	checkCurvePadding(t, p)
}

// splitNumbers returns the numbers of an element's text that are broken across two
// lines, and the number of lines the text takes.
func splitNumbers(p *page, id string) (split []string, lines int) {
	p.t.Helper()
	v := eval[struct {
		Split []string `json:"split"`
		Lines int      `json:"lines"`
	}](p, fmt.Sprintf(`(() => {
		const el = document.getElementById(%q), t = el.firstChild, split = [];
		for (const m of t.textContent.matchAll(/\d+/g)) {
			const r = document.createRange();
			r.setStart(t, m.index);
			r.setEnd(t, m.index + m[0].length);
			if (r.getClientRects().length !== 1) split.push(m[0]);
		}
		const all = document.createRange();
		all.selectNodeContents(el);
		return { split, lines: new Set([...all.getClientRects()].map((r) => Math.round(r.top))).size };
	})()`, id))
	return v.Split, v.Lines
}

// TestBrowserPhone opens the page on a phone's screen, 390×844 (an iPhone 12's): no panel, canvas or
// list is wider than the screen (the page was 636 px wide and scrolled sideways), the
// canvases are drawn at the size they are shown, column lists break between numbers
// only, and the U curve keeps its padding.
func TestBrowserPhone(t *testing.T) {
	const width = 390
	p := openPage(t, chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait,
		chromedp.EmulateTouch, chromedp.EmulateScale(1)))
	fits := func(when string) {
		t.Helper()
		if w := eval[int](p, `document.documentElement.scrollWidth`); w > width {
			t.Errorf("%s: the page is %d px wide on a %d px screen", when, w, width)
		}
		type box struct {
			Tag    string  `json:"tag"`
			ID     string  `json:"id"`
			Left   float64 `json:"left"`
			Right  float64 `json:"right"`
			Width  float64 `json:"width"`
			Height float64 `json:"height"`
			Buffer float64 `json:"buffer"`
		}
		for _, b := range eval[[]box](p, `[...document.querySelectorAll("section, canvas, .controls, p, dl")].filter((e) => e.getClientRects().length > 0).map((e) => {
			const r = e.getBoundingClientRect();
			return { tag: e.tagName, id: e.id, left: r.left, right: r.right, width: r.width, height: r.height, buffer: e.tagName === "CANVAS" ? e.width : 0 };
		})`) {
			if b.Left < 0 || b.Right > width {
				t.Errorf("%s: %s#%s spans %.0f..%.0f px, past the %d px screen", when, b.Tag, b.ID, b.Left, b.Right, width)
			}
			if b.Tag == "CANVAS" && math.Abs(b.Buffer-b.Width) > 1 {
				t.Errorf("%s: canvas #%s is shown %.0f px wide but drawn %.0f px wide", when, b.ID, b.Width, b.Buffer)
			}
		}
	}
	fits("on opening")

	// The board, smaller, with its queens at the centres of their squares.
	img, _ := p.shot("board")
	size := img.Bounds().Dx()
	if size >= 480 || size < 300 {
		t.Errorf("the board is %d px wide on a %d px screen", size, width)
	}
	checkBoard(t, img, size, nqueens.Placement{0, 4, 7, 5, 2, 6, 1, 3})

	// Column lists of 40 queens wrap over lines between numbers, never inside one
	// ("23 2" / "6 29" for 26).
	p.set("n", "40")
	p.set("algo", "localsearch")
	for seed := 1; seed <= 6; seed++ {
		p.set("seed", fmt.Sprint(seed))
		p.click("#solve")
		p.waitFor(fmt.Sprintf(`document.getElementById("board-status").textContent.includes("seed %d:")`, seed))
		split, lines := splitNumbers(p, "columns")
		if lines < 2 || len(split) > 0 {
			t.Errorf("seed %d: the columns take %d lines, with %v broken across two", seed, lines, split)
		}
	}
	fits("with 40 queens")
	img, _ = p.shot("board")
	checkBoard(t, img, size, parseColumns(t, p.text("columns")))

	// A board too large to draw: its summary and its first columns fit too.
	p.set("n", "1000")
	p.click("#solve")
	p.waitFor(`getComputedStyle(document.getElementById("summary")).display !== "none"`)
	if split, lines := splitNumbers(p, "columns"); lines < 2 || len(split) > 0 {
		t.Errorf("the first columns of 1000 queens take %d lines, with %v broken across two", lines, split)
	}
	fits("with the summary of 1000 queens")

	// The replays of the Las Vegas hybrid (with its U curve) and of the local search on
	// 200 queens (a scatter, with the diagonals' bars) fit too.
	loadReplay[lasVegasTrace](p, "lasvegas-row", map[string]string{"trace-n": "8", "trace-m": "3", "trace-seed": "5"},
		"/api/trace?search=lasvegas&variant=row&n=8&m=3&seed=5")
	p.waitFor(`document.getElementById("replay-curve-title").textContent.includes("exact")`)
	fits("with the Las Vegas replay")
	loadReplay[localSearchTrace](p, "localsearch", map[string]string{"trace-n": "200", "trace-seed": "1"},
		"/api/trace?search=localsearch&n=200&seed=1&check=placed")
	p.stepTo(700)
	fits("with the local search of 200 queens")

	p.panel("lab")
	fits("on the lab")
	checkCurvePadding(t, p)
}
