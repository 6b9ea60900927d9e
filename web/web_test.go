package web

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/nqueens/nqueens/internal/u128"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// newRequest is httptest.NewRequest addressed to the loopback, as a local browser would
// address it (httptest's own Host, example.com, is refused).
func newRequest(method, target string, body io.Reader) *http.Request {
	r := httptest.NewRequest(method, target, body)
	r.Host = "127.0.0.1:8080"
	return r
}

// do runs one request through h and returns the recorded response.
func do(t *testing.T, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r *http.Request
	if body != "" {
		r = newRequest(method, target, strings.NewReader(body))
	} else {
		r = newRequest(method, target, nil)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, http.MethodGet, target, "")
}

// decode checks a 200 JSON answer and decodes it into a T.
func decode[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if w.Code != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", w.Code, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("%v: %s", err, w.Body)
	}
	return v
}

// wantError checks a JSON error answer: the status, and the message containing want.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, want string) errorBody {
	t.Helper()
	if w.Code != status {
		t.Errorf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q, want JSON", ct)
	}
	var e errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" {
		t.Errorf("not a JSON error: %s (%v)", w.Body, err)
	}
	if !strings.Contains(e.Error, want) {
		t.Errorf("error %q does not say %q", e.Error, want)
	}
	return e
}

// placement turns 1-based columns from the API into a Placement, checking that it verifies.
func placement(t *testing.T, cols []int32) nqueens.Placement {
	t.Helper()
	p := make(nqueens.Placement, len(cols))
	for i, c := range cols {
		p[i] = c - 1
	}
	if err := nqueens.Verify(p); err != nil {
		t.Fatalf("the API returned an invalid placement %v: %v", cols, err)
	}
	return p
}

func TestStaticPage(t *testing.T) {
	h := New(Options{})
	w := get(t, h, "/")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for _, id := range []string{`id="board"`, `id="replay-board"`, `id="ucurve"`, `id="bars"`, `src="app.js"`} {
		if !strings.Contains(w.Body.String(), id) {
			t.Errorf("the page has no %s", id)
		}
	}
	// Every embedded file is served, under the name the page uses, and nothing else is.
	served := map[string]bool{}
	for path, f := range staticFiles {
		w := get(t, h, path)
		if w.Code != 200 || w.Header().Get("Content-Type") != f.kind || w.Body.Len() == 0 {
			t.Errorf("GET %s: %d %q, %d bytes", path, w.Code, w.Header().Get("Content-Type"), w.Body.Len())
		}
		if w := do(t, h, http.MethodHead, path, ""); w.Code != 200 || w.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d, %d bytes", path, w.Code, w.Body.Len())
		}
		served[f.file] = true
	}
	fs.WalkDir(staticFS, "static", func(path string, d fs.DirEntry, err error) error {
		if !d.IsDir() && !served[path] {
			t.Errorf("%s is embedded but not served", path)
		}
		return nil
	})
	wantError(t, do(t, h, http.MethodPost, "/", "x"), http.StatusMethodNotAllowed, "takes GET")
	// Nothing from another origin: no absolute URL in the page, its script or its style.
	for _, f := range staticFiles {
		if f.kind == "image/svg+xml" {
			continue // its xmlns names, and loads, nothing
		}
		b, _ := fs.ReadFile(staticFS, f.file)
		for _, bad := range []string{"http://", "https://", `src="//`, `href="//`, "@import"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s contains %q: the page must load nothing from elsewhere", f.file, bad)
			}
		}
	}
}

func TestNotFound(t *testing.T) {
	h := New(Options{})
	for _, path := range []string{"/api/nope", "/nope", "/static/index.html", "/../go.mod", "/app.js/../../web.go", "/api/solve/", "/API/solve"} {
		wantError(t, get(t, h, path), http.StatusNotFound, "no such page")
	}
}

func TestLimits(t *testing.T) {
	l := decode[limitsResponse](t, get(t, New(Options{}), "/api/limits"))
	if l.MaxDrawnN != MaxDrawnN || l.MaxSolveN != 10_000_000 || l.MaxEnumerateN != nqueens.MaxEnumerateN || l.MaxCountN != 16 ||
		l.MaxTraceN != 12 || l.MaxBodyBytes != 64<<10 || l.TimeoutSeconds != 10 || l.MaxConcurrent < 2 {
		t.Errorf("defaults: %+v", l)
	}
	l = decode[limitsResponse](t, get(t, New(Options{MaxSolveN: 100, MaxEnumerateN: 99, Timeout: time.Second}), "/api/limits"))
	if l.MaxSolveN != 100 || l.MaxEnumerateN != nqueens.MaxEnumerateN || l.TimeoutSeconds != 1 {
		t.Errorf("options: %+v", l)
	}
	wantError(t, get(t, New(Options{}), "/api/limits?n=3"), 400, "takes no parameters")
}

func TestSolve(t *testing.T) {
	h := New(Options{})
	r := decode[solveResponse](t, get(t, h, "/api/solve?n=8&algorithm=backtrack"))
	if got := fmt.Sprint(r.Columns); got != "[1 5 8 6 3 7 2 4]" || !r.Verified || r.Nodes != 114 || r.Algorithm != "backtrack" {
		t.Errorf("n=8 backtrack: %+v", r)
	}
	if r.Seed > maxSeed {
		t.Errorf("random seed %d is not exact in JavaScript", r.Seed)
	}
	if r := decode[solveResponse](t, get(t, h, "/api/solve?n=12")); r.Algorithm != "backtrack" {
		t.Errorf("auto at n=12 picked %s", r.Algorithm)
	}
	a := decode[solveResponse](t, get(t, h, "/api/solve?n=1000&algorithm=localsearch&seed=7"))
	b := decode[solveResponse](t, get(t, h, "/api/solve?n=1e3&seed=7"))
	placement(t, a.Columns)
	if !slices.Equal(a.Columns, b.Columns) || a.Seed != 7 || b.Algorithm != "localsearch" {
		t.Errorf("the same seed gave different placements (or algorithms %s, %s)", a.Algorithm, b.Algorithm)
	}
	if a.Attempts == nil || *a.Attempts == 0 || a.Download != "/api/placement.txt?n=1000&algorithm=localsearch&seed=7" {
		t.Errorf("local search answer: %+v", a)
	}
	placement(t, decode[solveResponse](t, get(t, h, "/api/solve?n=10&algorithm=construct")).Columns)
	big := decode[solveResponse](t, get(t, h, "/api/solve?n=2000&seed=1"))
	if big.Columns != nil || !big.Verified || big.Download == "" {
		t.Errorf("n=2000: columns %d, %+v", len(big.Columns), big)
	}
	wantError(t, get(t, h, "/api/solve?n=3"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/solve"), 400, "n, the board size, is missing")
	wantError(t, get(t, h, "/api/solve?n=0"), 400, "at least 1")
	wantError(t, get(t, h, "/api/solve?n=eight"), 400, "not a whole number")
	wantError(t, get(t, h, "/api/solve?n=-8"), 400, "at least 1")
	e := wantError(t, get(t, h, "/api/solve?n=1e8"), 400, "at most 10000000")
	if e.Limit != 10_000_000 {
		t.Errorf("limit %d", e.Limit)
	}
	wantError(t, get(t, h, "/api/solve?n=99999999999999999999999"), 400, "at most")
	wantError(t, get(t, h, "/api/solve?n=40&algorithm=backtrack"), 400, "too large for backtrack")
	wantError(t, get(t, h, "/api/solve?n=8&algorithm=magic"), 400, `unknown algorithm "magic" (want auto, localsearch, construct or backtrack)`)
	wantError(t, get(t, h, "/api/solve?n=8&seed=-1"), 400, "not a whole number")
	wantError(t, get(t, h, "/api/solve?n=8&seed="+strconv.FormatUint(maxSeed+1, 10)), 400, "not in 0..")
	wantError(t, get(t, h, "/api/solve?n=8&n=9"), 400, "given 2 times")
	wantError(t, get(t, h, "/api/solve?n=8&file=/etc/passwd"), 400, "unknown parameter file")
	wantError(t, get(t, h, "/api/solve?n=8&%zz"), 400, "bad query")
	wantError(t, do(t, h, http.MethodPost, "/api/solve?n=8", ""), 405, "takes GET")
	if w := do(t, h, http.MethodPut, "/api/solve?n=8", ""); w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("405 without Allow: GET, HEAD (%q)", w.Header().Get("Allow"))
	}
}

func TestPlacementText(t *testing.T) {
	h := New(Options{})
	r := decode[solveResponse](t, get(t, h, "/api/solve?n=50&seed=9"))
	w := get(t, h, r.Download)
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" ||
		w.Header().Get("Content-Disposition") != `attachment; filename="queens-50-localsearch-seed9.txt"` {
		t.Fatalf("download: %d %v", w.Code, w.Header())
	}
	p, err := nqueens.ParsePlacement(w.Body.String())
	if err != nil || !slices.Equal(oneBased(p), r.Columns) {
		t.Errorf("the download %q is not the placement shown %v (%v)", w.Body.String(), r.Columns, err)
	}
	// A large board: only the download holds the columns.
	w = get(t, h, "/api/placement.txt?n=1e5&algorithm=construct")
	if p, err := nqueens.ParsePlacement(w.Body.String()); err != nil || len(p) != 100_000 || nqueens.Verify(p) != nil {
		t.Errorf("n=10^5 download: %d bytes, %v", w.Body.Len(), err)
	}
	wantError(t, get(t, h, "/api/placement.txt?n=50"), 400, "seed is missing")
	wantError(t, get(t, h, "/api/placement.txt?n=2e7&seed=1"), 400, "at most 10000000")
}

func TestSolutions(t *testing.T) {
	h := New(Options{})
	var all []nqueens.Placement
	for i := 0; i < 92; i++ {
		r := decode[solutionResponse](t, get(t, h, fmt.Sprintf("/api/solutions?n=8&index=%d", i)))
		p := placement(t, r.Columns)
		if r.Index != i || r.HasNext != (i < 91) || r.ClassSize != 0 || !r.Verified {
			t.Errorf("index %d: %+v", i, r)
		}
		if len(all) > 0 && slices.Compare(all[len(all)-1], p) >= 0 {
			t.Errorf("index %d: %v is not after %v", i, p, all[len(all)-1])
		}
		all = append(all, p)
	}
	e := wantError(t, get(t, h, "/api/solutions?n=8&index=92"), 404, "n = 8 has 92 solutions (indexes 0..91)")
	if e.Limit != 91 {
		t.Errorf("limit %d", e.Limit)
	}
	total := 0
	for i := 0; ; i++ {
		w := get(t, h, fmt.Sprintf("/api/solutions?n=8&index=%d&unique=true", i))
		if w.Code == 404 {
			wantError(t, w, 404, "n = 8 has 12 classes of solutions")
			break
		}
		r := decode[solutionResponse](t, w)
		p := placement(t, r.Columns)
		if c, size := nqueens.Canonical(p); !slices.Equal(c, p) || size != r.ClassSize {
			t.Errorf("class %d: %v is not canonical, or its class has %d members, not %d", i, p, size, r.ClassSize)
		}
		total += r.ClassSize
	}
	if total != 92 {
		t.Errorf("the classes of n=8 hold %d solutions, want 92", total)
	}
	if r := decode[solutionResponse](t, get(t, h, "/api/solutions?n=1")); fmt.Sprint(r.Columns) != "[1]" || r.HasNext {
		t.Errorf("n=1: %+v", r)
	}
	wantError(t, get(t, h, "/api/solutions?n=3"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/solutions?n=33"), 400, "at most 32")
	wantError(t, get(t, New(Options{MaxEnumerateN: 10}), "/api/solutions?n=11"), 400, "at most 10")
	wantError(t, get(t, h, "/api/solutions?n=8&index=1000001"), 400, "not in 0..1000000")
	wantError(t, get(t, h, "/api/solutions?n=8&unique=maybe"), 400, "not true or false")
}

func TestCount(t *testing.T) {
	h := New(Options{})
	want := []uint64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200}
	wantUnique := []uint64{1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787}
	for n := 1; n <= 12; n++ {
		r := decode[countResponse](t, get(t, h, fmt.Sprintf("/api/count?n=%d", n)))
		if r.N != n || u128.U128(r.Total) != u128.From(want[n-1]) || u128.U128(r.Unique) != u128.From(wantUnique[n-1]) {
			t.Errorf("n=%d: %+v", n, r)
		}
	}
	wantError(t, get(t, h, "/api/count?n=17"), 400, "at most 16")
}

func TestTransform(t *testing.T) {
	h := New(Options{})
	p := nqueens.Placement{0, 4, 7, 5, 2, 6, 1, 3}
	for _, sym := range nqueens.Symmetries() {
		body := fmt.Sprintf(`{"columns":%s,"symmetry":%q}`, jsonInts(oneBased(p)), sym)
		r := decode[transformResponse](t, do(t, h, http.MethodPost, "/api/transform", body))
		c, size := nqueens.Canonical(p)
		if got := placement(t, r.Columns); !slices.Equal(got, sym.Apply(p)) || r.Symmetry != sym.String() || r.ClassSize != size ||
			!slices.Equal(placement(t, r.Canonical), c) || !r.Verified {
			t.Errorf("%s: %+v", sym, r)
		}
	}
	post := func(body string) *httptest.ResponseRecorder { return do(t, h, http.MethodPost, "/api/transform", body) }
	wantError(t, post(`{"columns":[1,2,3,4],"symmetry":"mirror"}`), 400, "not a solution: queens at row 1, column 1 and row 2, column 2")
	wantError(t, post(`{"columns":[2,4,1,5],"symmetry":"mirror"}`), 400, "column 5 is off the board")
	wantError(t, post(`{"columns":[2,4,1,3],"symmetry":"flip"}`), 400, `symmetry "flip" is not one of identity, rotate90`)
	wantError(t, post(`{"columns":[],"symmetry":"mirror"}`), 400, "columns is missing")
	wantError(t, post(`{"columns":[2,4,1,3]`), 400, "must be a JSON object")
	wantError(t, post(`{"columns":[2,4,1,3],"symmetry":"mirror","path":"/etc"}`), 400, `unknown field "path"`)
	wantError(t, post(`{"columns":[2,4,1,3],"symmetry":"mirror"} {}`), 400, "nothing after it")
	wantError(t, post(`{"columns":["2"],"symmetry":"mirror"}`), 400, "must be a JSON object")
	cols := make([]int32, 1001)
	for i := range cols {
		cols[i] = int32(i + 1)
	}
	e := wantError(t, post(`{"columns":`+jsonInts(cols)+`,"symmetry":"mirror"}`), 400, "at most 1000")
	if e.Limit != 1000 {
		t.Errorf("limit %d", e.Limit)
	}
	// Bodies past the cap: announced by Content-Length, and streamed without one.
	small := New(Options{MaxBodyBytes: 100})
	body := `{"columns":` + jsonInts(cols[:40]) + `,"symmetry":"mirror"}`
	wantError(t, do(t, small, http.MethodPost, "/api/transform", body), 413, "larger than 100 bytes")
	r := newRequest(http.MethodPost, "/api/transform", struct{ *strings.Reader }{strings.NewReader(body)})
	r.ContentLength = -1
	w := httptest.NewRecorder()
	small.ServeHTTP(w, r)
	if e := wantError(t, w, 413, "larger than 100 bytes"); e.Limit != 100 {
		t.Errorf("limit %d", e.Limit)
	}
	wantError(t, get(t, h, "/api/transform"), 405, "takes POST")
	if w := get(t, h, "/api/transform"); w.Header().Get("Allow") != "POST" {
		t.Errorf("Allow %q", w.Header().Get("Allow"))
	}
}

func jsonInts(v []int32) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// replay plays a trace's events on a board and checks that each is possible: a queen
// goes on a free row, off the square it is on, a conflict names a square that is taken
// or attacked, a solution is a full valid board, a compare (classic) names the queen of an
// earlier row as it stands and says rightly whether it attacks. It returns the counters it
// saw, loops the compares.
func replay(t *testing.T, tr traceResponse) (nodes, checks, solutions, loops int64) {
	t.Helper()
	board := make(nqueens.Placement, tr.N)
	for i := range board {
		board[i] = -1
	}
	attacked := func(r, c int32) bool {
		for q, k := range board {
			if k >= 0 && (k == c || int32(q)-k == r-c || int32(q)+k == r+c || int32(q) == r) {
				return true
			}
		}
		return false
	}
	nodes = 1
	for i, e := range tr.Events {
		k, r, c := e[0], e[1]-1, e[2]-1
		switch k {
		case evPlace:
			if attacked(r, c) {
				t.Fatalf("event %d: a queen on (%d, %d) under attack", i, r+1, c+1)
			}
			board[r] = c
			nodes++
			checks++
		case evRemove:
			if board[r] != c {
				t.Fatalf("event %d: no queen to remove on (%d, %d)", i, r+1, c+1)
			}
			board[r] = -1
		case evPrune:
			if board[r] >= 0 {
				t.Fatalf("event %d: prune on row %d, which holds a queen", i, r+1)
			}
		case evConflict:
			if !attacked(r, c) {
				t.Fatalf("event %d: conflict on (%d, %d), which is free", i, r+1, c+1)
			}
			checks++
		case evSolution:
			if err := nqueens.Verify(board); err != nil {
				t.Fatalf("event %d: solution %v: %v", i, board, err)
			}
			solutions++
		case evCompare:
			j, cj, attacks := e[3]-1, e[4]-1, e[5] == 1
			if d := c - cj; j >= r || board[j] != cj || board[r] >= 0 || attacks != (d == 0 || d == r-j || d == j-r) {
				t.Fatalf("event %d: compare %v on %v", i, e, board)
			}
			loops++
		default:
			t.Fatalf("event %d: kind %d", i, k)
		}
	}
	return nodes, checks, solutions, loops
}

func TestTrace(t *testing.T) {
	h := New(Options{})
	for _, a := range lab.Searches() {
		for n := 1; n <= 6; n++ {
			tr := decode[traceResponse](t, get(t, h, fmt.Sprintf("/api/trace?search=%s&n=%d&until=all", a.Name, n)))
			st, err := a.Run(context.Background(), n, nil)
			if err != nil {
				t.Fatal(err)
			}
			nodes, checks, sols, loops := replay(t, tr)
			if tr.Stopped != "" || !tr.Verified || !slices.Equal(tr.Kinds, eventKinds) || tr.Search != a.Name || tr.Title != a.Title {
				t.Errorf("%s n=%d: %+v", a.Name, n, tr)
			}
			// The counters the page shows, counted from the events, are the search's own.
			if nodes != st.Nodes || checks != st.Checks || sols != st.Total || tr.Nodes != st.Nodes || tr.Checks != st.Checks || tr.Total != st.Total {
				t.Errorf("%s n=%d: events give %d nodes, %d checks, %d solutions; the answer %d, %d, %d; the search %d, %d, %d",
					a.Name, n, nodes, checks, sols, tr.Nodes, tr.Checks, tr.Total, st.Nodes, st.Checks, st.Total)
			}
			// Classic's compare events are its Place loop's iterations, and the answer says so.
			if got := value(tr.PlaceLoopIterations); loops != st.PlaceLoopIterations || got != st.PlaceLoopIterations || (tr.PlaceLoopIterations != nil) != (a.Name == "classic") {
				t.Errorf("%s n=%d: %d compare events, place_loop_iterations %v; the search %d", a.Name, n, loops, tr.PlaceLoopIterations, st.PlaceLoopIterations)
			}
		}
	}
	// The solutions found are total, as in lab backtrack and count (there is no "solutions").
	if body := get(t, h, "/api/trace?search=row&n=6&until=all").Body.String(); !strings.Contains(body, `"total":4,`) || strings.Contains(body, `"solutions"`) {
		t.Errorf("search=row n=6: the answer does not say \"total\":4 alone: %.300s…", body)
	}
	first := decode[traceResponse](t, get(t, h, "/api/trace?search=classic&n=8"))
	if last := first.Events[len(first.Events)-1]; last[0] != evSolution || first.Stopped != "first solution" || first.Total != 1 || first.Nodes != 114 {
		t.Errorf("until the first solution: stopped %q, last event %v, %d solutions, %d nodes", first.Stopped, last, first.Total, first.Nodes)
	}
	replay(t, first)
	capped := decode[traceResponse](t, get(t, h, "/api/trace?search=cell&n=8&until=all&max_events=1000"))
	if len(capped.Events) != 1000 || capped.Stopped != "event limit" {
		t.Errorf("max_events=1000: %d events, stopped %q", len(capped.Events), capped.Stopped)
	}
	if n, c, s, _ := replay(t, capped); n != capped.Nodes || c != capped.Checks || s != capped.Total {
		t.Errorf("capped trace: counters %d %d %d, answer %d %d %d", n, c, s, capped.Nodes, capped.Checks, capped.Total)
	}
	small := decode[traceResponse](t, get(t, New(Options{MaxTraceEvents: 50}), "/api/trace?search=row&n=8&until=all"))
	if len(small.Events) != 50 || small.Stopped != "event limit" {
		t.Errorf("MaxTraceEvents 50: %d events", len(small.Events))
	}
	wantError(t, get(t, h, "/api/trace?n=13"), 400, "at most 12")
	wantError(t, get(t, h, "/api/trace?n=8&search=dfs"), 400, `unknown search "dfs" (want classic, row, cell, cellprune, lasvegas, localsearch or construct)`)
	wantError(t, get(t, h, "/api/trace?n=8&until=never"), 400, "not one of first, all")
	wantError(t, get(t, h, "/api/trace?n=8&max_events=200001"), 400, "not in 1..200000")
}

// value is *p, or 0 for a counter that does not apply (nil).
func value(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func TestLabBacktrack(t *testing.T) {
	w := get(t, New(Options{}), "/api/lab/backtrack?n=8")
	// The rows have the names of "nqueens lab backtrack --json".
	if !strings.Contains(w.Body.String(), `{"search":"classic","title":`) {
		t.Errorf("rows not in lab.SearchRow's names: %s", w.Body)
	}
	r := decode[lab.BacktrackTable](t, w)
	if len(r.Rows) != 4 || !r.Complete || r.Rows[1].NodesVsRow != 1 {
		t.Fatalf("%d rows", len(r.Rows))
	}
	for i, a := range lab.Searches() {
		st, _ := a.Run(context.Background(), 8, nil)
		row := r.Rows[i]
		if row.Search != a.Name || row.Nodes != st.Nodes || row.Checks != st.Checks || row.Total != 92 ||
			value(row.PlaceLoopIterations) != st.PlaceLoopIterations || value(row.SkippedNodes) != st.SkippedNodes || value(row.DeadNodes) != st.DeadNodes {
			t.Errorf("%s: %+v, want %+v", a.Name, row, st)
		}
	}
	// The published figures for the classic search (n=8: 2,057 calls, 15,720 place calls,
	// 46,752 loop iterations).
	if c := r.Rows[0]; c.Nodes != 2057 || c.Checks != 15720 || value(c.PlaceLoopIterations) != 46752 {
		t.Errorf("classic n=8: %+v", c)
	}
	wantError(t, get(t, New(Options{}), "/api/lab/backtrack?n=11"), 400, "at most 10")
}

func TestLabLasVegas(t *testing.T) {
	h := New(Options{})
	r := decode[lab.LasVegasTable](t, get(t, h, "/api/lab/lasvegas?n=8&variant=row&exact=true"))
	// Brassard & Bratley's table, n=8, row variant: t for k = 0..8.
	want := []float64{114.00, 39.63, 28.20, 29.01, 35.10, 46.92, 53.50, 55.93, 55.93}
	if len(r.Rows) != 9 || !r.Exact || r.Optimum != 2 {
		t.Fatalf("%+v", r)
	}
	for i, row := range r.Rows {
		if row.M != i || math.Abs(float64(row.Explored)-want[i]) > 0.006 {
			t.Errorf("m=%d: t = %v, want %.2f", row.M, row.Explored, want[i])
		}
	}
	if r := decode[lab.LasVegasTable](t, get(t, h, "/api/lab/lasvegas?n=5&variant=cell&exact=1")); len(r.Rows) != 6 || r.Rows[0].Explored <= 0 {
		t.Errorf("cell exact n=5: %+v", r)
	}
	// The same seed gives the same counters (the times differ).
	counters := func(tab lab.LasVegasTable) string {
		var b strings.Builder
		for _, r := range tab.Rows {
			fmt.Fprintf(&b, "%d %v %v %v %v %v %v;", r.M, r.P, r.Starts, r.Explored, r.Checks, r.Nodes, r.Runs)
		}
		return b.String()
	}
	a := counters(decode[lab.LasVegasTable](t, get(t, h, "/api/lab/lasvegas?n=12&trials=5&seed=3")))
	s := decode[lab.LasVegasTable](t, get(t, h, "/api/lab/lasvegas?n=12&trials=5&seed=3"))
	b := counters(s)
	if a != b || len(s.Rows) != 13 || s.Exact || s.Trials != 5 || s.Seed != 3 || s.MaxChecks != sweepBudget || s.Optimum < 0 {
		t.Errorf("sampled sweep (same seed twice equal: %v): %+v", a == b, s)
	}
	wantError(t, get(t, h, "/api/lab/lasvegas?n=11&variant=row&exact=1"), 400, "at most 10")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=8&variant=cell&exact=1"), 400, "at most 7")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=8&exact=1"), 400, "at most 7") // lab.DefaultVariant
	wantError(t, get(t, h, "/api/lab/lasvegas?n=41"), 400, "at most 40")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=3"), 404, "n = 3: no solution exists")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=8&trials=0"), 400, "not in 1..100")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=8&variant=both"), 400, `unknown variant "both" (want cell or row)`)
	wantError(t, get(t, h, "/api/lab/lasvegas?n=6&exact=true&seed=1"), 400, "exact=true and trials or seed exclude each other")
	wantError(t, get(t, h, "/api/lab/lasvegas?n=6&exact=true&objective=time"), 400, "exact=true and objective=time exclude each other")
}

// TestBusy: with every slot taken a computation gets 503 at once (or after QueueWait),
// while the page and the limits, which compute nothing, are still served.
func TestBusy(t *testing.T) {
	s := New(Options{MaxConcurrent: 1, QueueWait: -1}).(*server)
	s.slots <- struct{}{}
	w := get(t, s, "/api/count?n=4")
	wantError(t, w, 503, "busy")
	if w.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", w.Header().Get("Retry-After"))
	}
	// Bad input is refused before a slot is needed.
	wantError(t, get(t, s, "/api/count?n=99"), 400, "at most 16")
	if get(t, s, "/api/limits").Code != 200 || get(t, s, "/").Code != 200 {
		t.Error("the limits or the page need a slot")
	}
	<-s.slots
	decode[countResponse](t, get(t, s, "/api/count?n=4"))

	q := New(Options{MaxConcurrent: 1, QueueWait: 5 * time.Second}).(*server)
	q.slots <- struct{}{}
	go func() {
		time.Sleep(50 * time.Millisecond)
		<-q.slots
	}()
	start := time.Now()
	decode[countResponse](t, get(t, q, "/api/count?n=4")) // waits for the slot
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Errorf("answered in %v while the slot was taken", el)
	}
	qw := New(Options{MaxConcurrent: 1, QueueWait: 30 * time.Millisecond}).(*server)
	qw.slots <- struct{}{}
	start = time.Now()
	wantError(t, get(t, qw, "/api/count?n=4"), 503, "busy")
	if el := time.Since(start); el < 25*time.Millisecond || el > 2*time.Second {
		t.Errorf("gave up after %v, want about QueueWait", el)
	}
}

// TestTimeout: a computation past the timeout is stopped promptly and answered with 504.
func TestTimeout(t *testing.T) {
	// (A trace is bounded by its events rather than by time: every node is an event.)
	h := New(Options{Timeout: 20 * time.Millisecond, MaxCountN: 18})
	for _, target := range []string{"/api/count?n=18", "/api/lab/backtrack?n=10", "/api/lab/lasvegas?n=40&variant=cell&trials=100",
		"/api/solutions?n=16&index=1000000", "/api/solve?n=1e7&seed=1"} {
		start := time.Now()
		wantError(t, get(t, h, target), 504, "took longer than 20ms")
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("%s: stopped after %v", target, el)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"": false, "0.0.0.0": false, "::": false, "192.168.1.2": false, "example.com": false, "localhost.example.com": false} {
		if IsLoopback(host) != want {
			t.Errorf("IsLoopback(%q) = %v", host, !want)
		}
	}
}

func TestNewServer(t *testing.T) {
	s := NewServer(Options{Timeout: time.Second})
	if s.Handler == nil || s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= time.Second || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Errorf("%+v", s)
	}
}

// TestNoFileAccess: the package reads and writes no file: no file-system package is
// imported outside the tests (the page is embedded), and no parameter names a path.
func TestNoFileAccess(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			switch path, _ := strconv.Unquote(imp.Path.Value); path {
			case "os", "os/exec", "io/ioutil", "path/filepath", "syscall", "plugin", "golang.org/x/sys/unix":
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
	if _, err := os.Stat("doc.go"); err != nil {
		t.Fatal("run from the package directory:", err)
	}
}

// TestTraceFrom: a row-by-row search replays from the queens of fix= (a custom start):
// its events are possible moves that keep the fixed queens' rows to their columns, it
// counts the completions CountCompletions counts, the answer names the fixed queens, and
// the cell searches and a board that is no partial placement are refused.
func TestTraceFrom(t *testing.T) {
	h := New(Options{})
	ctx := context.Background()
	for _, c := range []struct{ search, fix string }{{"row", "1:2"}, {"classic", "2:4, 5:1"}, {"row", "1:1, 2:2"}, {"classic", "0 0 0 3 0 0"}} {
		p, err := nqueens.ParsePartial(c.fix, 6)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := nqueens.CountCompletions(ctx, p, nqueens.CompletionOptions{})
		tr := decode[traceResponse](t, get(t, h, "/api/trace?search="+c.search+"&n=6&until=all&fix="+url.QueryEscape(c.fix)))
		_, _, sols, _ := replay(t, tr)
		if tr.Total != int64(want.Total) || sols != tr.Total || !slices.Equal(tr.Fix, fixPairs(p)) || len(tr.Fix) == 0 {
			t.Errorf("%s from %q: %d completions (events %d), fix %v; CountCompletions %d", c.search, c.fix, tr.Total, sols, tr.Fix, want.Total)
		}
		for i, e := range tr.Events {
			if e[0] != evPlace {
				continue
			}
			if f := p[e[1]-1]; f >= 0 && e[2]-1 != f {
				t.Errorf("%s from %q: event %d places a queen on (%d, %d), its row is fixed at column %d", c.search, c.fix, i, e[1], e[2], f+1)
			}
		}
	}
	if body := get(t, h, "/api/trace?search=row&n=6").Body.String(); strings.Contains(body, `"fix"`) {
		t.Errorf("a replay from the empty board names fixed queens: %.200s", body)
	}
	wantError(t, get(t, h, "/api/trace?search=cell&n=6&fix=1:2"), 400, "fix applies to the row-by-row searches (classic, row), not to cell")
	wantError(t, get(t, h, "/api/trace?search=row&n=6&fix=9:9"), 400, "fix: ")
}
