package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// The browser tests drive the real page in headless Chromium (Debian's package chromium)
// against the real handler on 127.0.0.1. Without a browser they skip, unless
// NQUEENS_BROWSER=1 (CI sets it), which makes a missing browser a failure.
// NQUEENS_CHROMIUM names another binary; NQUEENS_SCREENSHOTS=DIR also writes the
// README's screenshots (docs/serve-*.png) to DIR.

const defaultChromium = "/usr/bin/chromium"

// page is one tab on the page of a test server.
type page struct {
	t    *testing.T
	ctx  context.Context
	url  string
	mu   sync.Mutex
	errs []string // exceptions and console errors of the page
}

// openPage starts a test server and a headless Chromium showing its page, or skips.
// The setup steps run before the page is opened (a phone's viewport).
func openPage(t *testing.T, setup ...chromedp.Action[chromedp.Void]) *page {
	t.Helper()
	path := os.Getenv("NQUEENS_CHROMIUM")
	if path == "" {
		path = defaultChromium
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("NQUEENS_BROWSER") == "1" {
			t.Fatalf("NQUEENS_BROWSER=1 but there is no browser: %v (apt-get install chromium)", err)
		}
		t.Skipf("skipping the browser test: no Chromium at %s (apt-get install chromium, or set NQUEENS_CHROMIUM; NQUEENS_BROWSER=1 makes this a failure)", path)
	}
	// The handler knows its address, as under nqueens serve: the page's own requests
	// (its POSTs carry an Origin) pass the Host and Origin checks.
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = New(Options{Addr: srv.Listener.Addr().String()})
	srv.Start()
	t.Cleanup(srv.Close)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox, // as root, in CI
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Nothing but the test server: no updates, no sync, no background requests.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Exact colours and one device pixel per CSS pixel, for the pixel checks.
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.WindowSize(1280, 1400),
	)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	p := &page{t: t, ctx: ctx, url: srv.URL}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "exception: " + ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type != "error" && ev.Type != "warning" {
				return
			}
			msg = "console." + string(ev.Type) + ":"
			for _, a := range ev.Args {
				msg += " " + string(a.Value) + a.Description
			}
		default:
			return
		}
		p.mu.Lock()
		p.errs = append(p.errs, msg)
		p.mu.Unlock()
	})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	p.do(setup...)
	p.do(chromedp.Navigate(srv.URL))
	p.waitFor(`document.body.dataset.ready === "true"`)
	t.Cleanup(p.checkClean)
	return p
}

// checkClean fails on any script error and on any resource from another origin.
func (p *page) checkClean() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errs {
		p.t.Errorf("the page logged %s", e)
	}
	for _, u := range eval[[]string](p, `performance.getEntriesByType("resource").map(e => e.name)`) {
		if !strings.HasPrefix(u, p.url+"/") {
			p.t.Errorf("the page loaded %s, not from its own server", u)
		}
	}
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor waits until the JavaScript expression is true.
func (p *page) waitFor(expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s: %v (board: %q, replay: %q)", expr, err, p.text("board-status"), p.text("replay-status"))
	}
}

func (p *page) text(id string) string {
	return eval[string](p, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// number reads a counter of the page, written with thousands separators.
func (p *page) number(id string) string {
	return strings.ReplaceAll(p.text(id), ",", "")
}

// slide moves a range input to value, as a drag of its thumb does.
func (p *page) slide(id string, value int) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %d; s.dispatchEvent(new Event("input")); return true })()`, id, value))
}

// visible reports whether an element takes room on the page.
func (p *page) visible(id string) bool {
	return eval[bool](p, fmt.Sprintf(`document.getElementById(%q).getClientRects().length > 0`, id))
}

func (p *page) click(css string) { p.t.Helper(); p.do(chromedp.Click(chromedp.CSS(css))) }

// panel shows one of the page's panels (board, replay, lab) by its tab.
func (p *page) panel(name string) {
	p.t.Helper()
	p.click("#tab-" + name)
	p.waitFor(fmt.Sprintf(`!document.getElementById(%q).hidden`, name+"-panel"))
}

func (p *page) set(id, value string) { p.t.Helper(); p.do(chromedp.SetValue(chromedp.ID(id), value)) }

// shot takes a screenshot of an element and decodes it.
func (p *page) shot(id string) (image.Image, []byte) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(id)))
	if err != nil {
		p.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatalf("the screenshot of #%s is not a PNG: %v", id, err)
	}
	return img, b
}

// getJSON asks the test server directly, as the page does.
func getJSON[T any](p *page, path string) T {
	p.t.Helper()
	resp, err := http.Get(p.url + path)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != 200 {
		p.t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
	}
	return v
}

// The colours of app.js.
var (
	colQueen    = color.RGBA{0x1f, 0x24, 0x30, 0xff}
	colLight    = color.RGBA{0xee, 0xee, 0xd2, 0xff}
	colDark     = color.RGBA{0x76, 0x96, 0x56, 0xff}
	colConflict = color.RGBA{0xd6, 0x28, 0x28, 0xff}
)

func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) int { return max(int(x>>8)-int(y), int(y)-int(x>>8)) }
	return d(r, want.R) <= 8 && d(g, want.G) <= 8 && d(b, want.B) <= 8
}

// centre returns the colour at the centre of square (r, c) of an n×n board image.
func centre(img image.Image, n, r, c int) color.Color {
	b := img.Bounds()
	cell := float64(b.Dx()) / float64(n)
	return img.At(b.Min.X+int((float64(c)+0.5)*cell), b.Min.Y+int((float64(r)+0.5)*cell))
}

// checkBoard checks a size×size screenshot of the board: a queen at the centre of each
// square of p, the plain square colour at the centre of every other.
func checkBoard(t *testing.T, img image.Image, size int, p nqueens.Placement) {
	t.Helper()
	n := len(p)
	// (A board shrunk to a fractional width may take a row more in the screenshot.)
	if b := img.Bounds(); b.Dx() != size || b.Dy() != size && b.Dy() != size+1 {
		t.Fatalf("the board is %v pixels, want %d×%d", b.Size(), size, size)
	}
	for r := range n {
		for c := range n {
			got := centre(img, n, r, c)
			want, what := colLight, "a light square"
			switch {
			case int(p[r]) == c:
				want, what = colQueen, "a queen"
			case (r+c)%2 == 1:
				want, what = colDark, "a dark square"
			}
			if !near(got, want) {
				t.Errorf("square (%d, %d): colour %v, want %s %v", r+1, c+1, got, what, want)
			}
		}
	}
}

func parseColumns(t *testing.T, text string) nqueens.Placement {
	t.Helper()
	p, err := nqueens.ParsePlacement(strings.TrimPrefix(text, "columns: "))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return p
}

// TestBrowserBoard solves, steps through the solutions, applies symmetries and shows a
// large board, checking the DOM and the pixels of the board against the API.
func TestBrowserBoard(t *testing.T) {
	p := openPage(t)

	// The page solves n = 8 as it opens: the first solution in lexicographic order.
	first8 := nqueens.Placement{0, 4, 7, 5, 2, 6, 1, 3}
	if got := parseColumns(t, p.text("columns")); !slices.Equal(got, first8) {
		t.Errorf("on opening the page shows %v, want %v", got, first8)
	}
	img, raw := p.shot("board")
	checkBoard(t, img, 480, first8)
	saveShot(t, p, "serve-board.png", "board-panel")

	// Local search with a seed: the placement the API gives for the same request.
	p.set("n", "10")
	p.set("algo", "localsearch")
	p.set("seed", "3")
	p.click("#solve")
	p.waitFor(`document.getElementById("board-status").textContent.includes("seed 3")`)
	want := getJSON[solveResponse](p, "/api/solve?n=10&algorithm=localsearch&seed=3")
	got := parseColumns(t, p.text("columns"))
	if !slices.Equal(got, placement(t, want.Columns)) {
		t.Errorf("the page shows %v, the API gives %v", got, want.Columns)
	}
	if s := p.text("board-status"); !strings.Contains(s, "verified") {
		t.Errorf("status %q", s)
	}
	// "next" cannot go on from a placement of the local search: the page says where it starts.
	if !p.visible("step-note") || !strings.Contains(p.text("step-note"), "from solution 1") {
		t.Errorf("after a local search, the note on stepping is hidden or says %q", p.text("step-note"))
	}
	img2, raw2 := p.shot("board")
	checkBoard(t, img2, 480, got)
	if bytes.Equal(raw, raw2) {
		t.Error("the board did not change")
	}

	// The symmetries redraw the board with the image of the placement.
	p.click(`button[data-sym="rotate90"]`)
	p.waitFor(`document.getElementById("board-status").textContent.startsWith("rotate90")`)
	rot := parseColumns(t, p.text("columns"))
	if !slices.Equal(rot, nqueens.Rotate90.Apply(got)) {
		t.Errorf("rotate90 of %v shows %v", got, rot)
	}
	img3, _ := p.shot("board")
	checkBoard(t, img3, 480, rot)
	p.click("#canonical")
	p.waitFor(`document.getElementById("board-status").textContent.startsWith("canonical")`)
	if c, _ := nqueens.Canonical(got); !slices.Equal(parseColumns(t, p.text("columns")), c) {
		t.Errorf("canonical form of %v shows %s", got, p.text("columns"))
	}

	// Next and previous step through the solutions in lexicographic order.
	var lex []nqueens.Placement
	nqueens.Enumerate(context.Background(), 10, nqueens.EnumerateOptions{Limit: 3}, func(q nqueens.Placement, _ int) bool {
		lex = append(lex, slices.Clone(q))
		return true
	})
	for i, step := range []struct {
		button string
		k      int
	}{{"#next", 0}, {"#next", 1}, {"#next", 2}, {"#prev", 1}, {"#prev", 0}} {
		p.click(step.button)
		status := fmt.Sprintf("solution %d of 724", step.k+1)
		p.waitFor(fmt.Sprintf(`document.getElementById("board-status").textContent.includes(%q)`, status))
		if got := parseColumns(t, p.text("columns")); !slices.Equal(got, lex[step.k]) {
			t.Errorf("step %d (%s): %v, want %v", i, status, got, lex[step.k])
		}
	}
	if !eval[bool](p, `document.getElementById("prev").disabled`) {
		t.Error("previous is enabled on the first solution")
	}
	if p.visible("step-note") {
		t.Error("the note on where stepping starts stays while stepping")
	}
	p.click("#unique")
	p.waitFor(`document.getElementById("board-status").textContent.includes("class 1 of 92 (8 solutions)")`)
	if got, size := nqueens.Canonical(parseColumns(t, p.text("columns"))); size != 8 || !slices.Equal(got, parseColumns(t, p.text("columns"))) {
		t.Errorf("class 1 shows %s, not a canonical form of a class of 8", p.text("columns"))
	}

	// A large board is summarised, with its placement to download.
	p.set("n", "100000")
	p.set("seed", "1")
	p.click("#solve")
	p.waitFor(`getComputedStyle(document.getElementById("summary")).display !== "none"`)
	if d := eval[string](p, `getComputedStyle(document.getElementById("board")).display`); d != "none" {
		t.Errorf("the board stays on the page (display %q) for 10^5 queens", d)
	}
	summary := p.text("summary-list")
	for _, s := range []string{"n100,000", "algorithmlocalsearch", "seed1", "conflicts (k)", "swaps", "restarts", "verifiedyes"} {
		if !strings.Contains(summary, s) {
			t.Errorf("the summary %q lacks %q", summary, s)
		}
	}
	href := eval[string](p, `document.getElementById("download").getAttribute("href")`)
	if href != "/api/placement.txt?n=100000&algorithm=localsearch&seed=1" {
		t.Fatalf("download link %q", href)
	}
	resp, err := http.Get(p.url + href)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if q, err := nqueens.ParsePlacement(string(body)); err != nil || len(q) != 100_000 || nqueens.Verify(q) != nil {
		t.Errorf("the download is not a valid placement of 10^5 queens (%v)", err)
	}

	// The server's errors reach the page.
	p.set("n", "3")
	p.click("#solve")
	p.waitFor(`document.getElementById("board-status").classList.contains("error")`)
	if s := p.text("board-status"); s != "n = 3: no solution exists" {
		t.Errorf("error shown as %q", s)
	}
}

// traceAt returns the counters the page must show after the first i events.
func traceAt(tr traceResponse, i int) (depth, nodes, checks, solutions int) {
	nodes = 1
	for _, e := range tr.Events[:i] {
		switch e[0] {
		case evPlace:
			depth++
			nodes++
			checks++
		case evRemove:
			depth--
		case evConflict:
			checks++
		case evSolution:
			solutions++
		}
	}
	return
}

// checkCounters compares the counters on the page with those after the first i events.
func checkCounters(t *testing.T, p *page, tr traceResponse, i int) {
	t.Helper()
	depth, nodes, checks, sols := traceAt(tr, i)
	got := fmt.Sprintf("event %s depth %s nodes %s checks %s solutions %s", p.number("ev-index"), p.text("depth"), p.number("nodes"), p.number("checks"), p.number("solutions"))
	if want := fmt.Sprintf("event %d depth %d nodes %d checks %d solutions %d", i, depth, nodes, checks, sols); got != want {
		t.Errorf("the page shows %q, want %q", got, want)
	}
}

// TestBrowserReplay clicks through the animation: step forward and back, play, pause,
// play to the end, checking the counters, the state and the board's pixels.
func TestBrowserReplay(t *testing.T) {
	p := openPage(t)
	p.panel("replay")
	// n = 6: 197 events to the first solution, ten seconds at the speed of the pause test,
	// so that the replay cannot end before the pause on a slow machine.
	tr := getJSON[traceResponse](p, "/api/trace?search=row&n=6&until=first")
	p.set("search", "row")
	p.set("trace-n", "6")
	p.set("until", "first")
	p.click("#load")
	p.waitFor(fmt.Sprintf(`document.getElementById("replay-status").textContent.includes("n = 6: %d events")`, len(tr.Events)))
	state := func() string { return eval[string](p, `document.getElementById("replay-panel").dataset.state`) }
	if s := state(); s != "paused" || p.number("ev-total") != fmt.Sprint(len(tr.Events)) {
		t.Fatalf("after loading: state %q, %s events", s, p.text("ev-total"))
	}
	checkCounters(t, p, tr, 0)
	if !eval[bool](p, `document.getElementById("step-back").disabled`) {
		t.Error("back is enabled at the start")
	}

	// Step forward: the first queen, then the first conflict, in red.
	if !slices.Equal(tr.Events[0], []int32{evPlace, 1, 1, 5}) || !slices.Equal(tr.Events[1], []int32{evConflict, 2, 1, 4}) {
		t.Fatalf("the row search of n=6 starts %v", tr.Events[:2])
	}
	p.click("#step-fwd")
	checkCounters(t, p, tr, 1)
	img, _ := p.shot("replay-board")
	if got := centre(img, 6, 0, 0); !near(got, colQueen) {
		t.Errorf("after the first place event, square (1, 1) is %v, not a queen", got)
	}
	p.click("#step-fwd")
	checkCounters(t, p, tr, 2)
	if s := p.text("last-event"); s != "row 2, column 1 is attacked by the queen at row 1, column 1 in the same column: try column 2" {
		t.Errorf("last event %q", s)
	}
	img, _ = p.shot("replay-board")
	if got := centre(img, 6, 1, 0); !near(got, colConflict) {
		t.Errorf("the conflicting square (2, 1) is %v, not red", got)
	}
	p.click("#step-back")
	checkCounters(t, p, tr, 1)
	img, _ = p.shot("replay-board")
	if got := centre(img, 6, 1, 0); near(got, colConflict) {
		t.Error("square (2, 1) is still red after stepping back")
	}

	// Play, then pause: the position moves while playing and holds while paused.
	p.slide("speed", 40)
	if s := p.text("speed-text"); s != "21 events/s" {
		t.Errorf("speed 40 reads %q", s)
	}
	p.click("#play")
	if s := state(); s != "playing" || !strings.Contains(p.text("play"), "pause") {
		t.Errorf("playing: state %q, button %q", s, p.text("play"))
	}
	p.waitFor(`Number(document.getElementById("ev-index").textContent) >= 4`)
	p.click("#play")
	if s := state(); s != "paused" {
		t.Errorf("after pause: state %q", s)
	}
	var i int
	fmt.Sscan(p.number("ev-index"), &i)
	time.Sleep(300 * time.Millisecond)
	if j := p.number("ev-index"); j != fmt.Sprint(i) {
		t.Errorf("paused at event %d, then at %s", i, j)
	}
	checkCounters(t, p, tr, i)

	// Play to the end at full speed: the first solution, drawn.
	p.slide("speed", 100)
	p.click("#play")
	p.waitFor(`document.getElementById("replay-panel").dataset.state === "ended"`)
	checkCounters(t, p, tr, len(tr.Events))
	if s := p.text("last-event"); s != "all 6 rows hold a queen: solution 1, the first: the replay stops here. The replay is over: it stops at the first solution, after 32 nodes and 171 checks." {
		t.Errorf("last event %q", s)
	}
	if p.number("nodes") != fmt.Sprint(tr.Nodes) || p.number("checks") != fmt.Sprint(tr.Checks) {
		t.Errorf("at the end: %s nodes, %s checks; the trace says %d, %d", p.text("nodes"), p.text("checks"), tr.Nodes, tr.Checks)
	}
	img, _ = p.shot("replay-board")
	sol := make(nqueens.Placement, 6)
	for r := range 6 {
		for c := range 6 {
			if near(centre(img, 6, r, c), colQueen) {
				sol[r] = int32(c) + 1
			}
		}
	}
	for r := range sol {
		sol[r]--
	}
	if err := nqueens.Verify(sol); err != nil {
		t.Errorf("the final board %v is not a solution: %v", sol, err)
	}

	// The node and check bars: the status line names each search with its counters.
	p.panel("lab")
	p.set("bars-n", "6")
	p.click("#bars-go")
	p.waitFor(`document.getElementById("bars-status").textContent.startsWith("n = 6:")`)
	var want []string
	bt, err := lab.Backtrack(context.Background(), 6, lab.BacktrackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range bt.Rows {
		want = append(want, fmt.Sprintf("%s %s nodes, %s checks", r.Search, grouped(r.Nodes), grouped(r.Checks)))
	}
	if got, w := p.text("bars-status"), "n = 6: "+strings.Join(want, "; "); got != w {
		t.Errorf("bars: %q, want %q", got, w)
	}
}

// saveShot writes a screenshot of an element to $NQUEENS_SCREENSHOTS/name.
func saveShot(t *testing.T, p *page, name, id string) {
	dir := os.Getenv("NQUEENS_SCREENSHOTS")
	if dir == "" {
		return
	}
	_, b := p.shot(id)
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", filepath.Join(dir, name))
}

// grouped formats v as the page does (toLocaleString("en-US")): 12,345.
func grouped(v int64) string {
	s := fmt.Sprint(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
