package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
)

// TestLoad drives a real server on loopback (httptest listens on 127.0.0.1) with more
// clients than slots, for a bounded time: every answer must be a success or the intended
// 503 (JSON, with Retry-After), every placement must verify, nothing may take long. The
// queue wait is short so that the cap is reached and the 503s are exercised too; on a
// loaded machine some endpoints may then get only 503s, so each one is asked again
// once the load is gone.
func TestLoad(t *testing.T) {
	const (
		clients  = 8
		slots    = 2
		duration = 1500 * time.Millisecond
	)
	srv := httptest.NewServer(New(Options{MaxConcurrent: slots, QueueWait: 5 * time.Millisecond, Timeout: 5 * time.Second}))
	defer srv.Close()
	type request struct{ method, path, body string }
	requests := []request{
		{"GET", "/api/solve?n=8&algorithm=backtrack", ""},
		{"GET", "/api/solve?n=200&seed=5", ""},
		{"GET", "/api/solve?n=1e5&algorithm=construct", ""},
		{"GET", "/api/solutions?n=10&index=123", ""},
		{"GET", "/api/solutions?n=9&index=20&unique=true", ""},
		{"GET", "/api/count?n=10", ""},
		{"GET", "/api/count?n=13", ""},
		{"POST", "/api/transform", `{"columns":[2,4,6,8,3,1,7,5],"symmetry":"rotate90"}`},
		{"GET", "/api/trace?search=cellprune&n=7&until=all", ""},
		{"GET", "/api/lab/backtrack?n=7", ""},
		{"GET", "/api/lab/lasvegas?n=8&variant=row&exact=true", ""},
		{"GET", "/api/limits", ""},
		{"GET", "/", ""},
	}
	type tally struct {
		ok, busy int
		worst    time.Duration
	}
	var (
		mu      sync.Mutex
		tallies = map[string]*tally{}
		lat     []time.Duration
		fails   []string
	)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer client.CloseIdleConnections()
	stop := time.Now().Add(duration)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; time.Now().Before(stop); i++ {
				rq := requests[i%len(requests)]
				req, _ := http.NewRequest(rq.method, srv.URL+rq.path, strings.NewReader(rq.body))
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					mu.Lock()
					fails = append(fails, fmt.Sprintf("%s: %v", rq.path, err))
					mu.Unlock()
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				el := time.Since(start)
				problem := check(rq.path, resp, body, err)
				mu.Lock()
				tl := tallies[rq.path]
				if tl == nil {
					tl = &tally{}
					tallies[rq.path] = tl
				}
				if resp.StatusCode == http.StatusOK {
					tl.ok++
				} else {
					tl.busy++
				}
				tl.worst = max(tl.worst, el)
				lat = append(lat, el)
				if problem != "" {
					fails = append(fails, problem)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, f := range fails[:min(len(fails), 10)] {
		t.Error(f)
	}
	slices.Sort(lat)
	ok, busy := 0, 0
	for _, rq := range requests {
		if tl := tallies[rq.path]; tl != nil {
			ok, busy = ok+tl.ok, busy+tl.busy
			t.Logf("%-45s %4d ok %4d busy, slowest %v", rq.path, tl.ok, tl.busy, tl.worst.Round(time.Millisecond))
		}
	}
	if ok == 0 {
		t.Error("no request succeeded under load")
	}
	if busy == 0 {
		t.Errorf("no request found the %d slots taken: the cap was never reached", slots)
	}
	if len(lat) < 100 {
		t.Errorf("only %d requests in %v", len(lat), duration)
	}
	p50, p99, worst := lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	t.Logf("%d requests from %d clients in %v (%.0f/s), %d busy (503); latency p50 %v, p99 %v, max %v",
		len(lat), clients, duration, float64(len(lat))/duration.Seconds(), busy, p50, p99, worst)
	// Once the load is gone, every endpoint answers again.
	for _, rq := range requests {
		req, _ := http.NewRequest(rq.method, srv.URL+rq.path, strings.NewReader(rq.body))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s after the load: %d %s", rq.path, resp.StatusCode, body)
		} else if problem := check(rq.path, resp, body, err); problem != "" {
			t.Error(problem)
		}
	}
	// Loose: a request waits at most QueueWait for a slot, and the slowest job here takes
	// tens of milliseconds; seconds would mean requests pile up.
	if worst > 4*time.Second {
		t.Errorf("slowest request took %v", worst)
	}
}

// check returns what is wrong with one answer under load, or "".
func check(path string, resp *http.Response, body []byte, readErr error) string {
	switch {
	case readErr != nil:
		return fmt.Sprintf("%s: reading the body: %v", path, readErr)
	case resp.StatusCode == http.StatusServiceUnavailable:
		var e errorBody
		if json.Unmarshal(body, &e) != nil || !strings.Contains(e.Error, "busy") || resp.Header.Get("Retry-After") == "" {
			return fmt.Sprintf("%s: 503 without a JSON busy error and Retry-After: %s", path, body)
		}
		return ""
	case resp.StatusCode != http.StatusOK:
		return fmt.Sprintf("%s: status %d: %s", path, resp.StatusCode, body)
	case path == "/":
		return ""
	}
	var v struct {
		Verified  *bool
		Columns   []int32
		Canonical []int32
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	for _, cols := range [][]int32{v.Columns, v.Canonical} {
		if cols == nil {
			continue
		}
		p := make(nqueens.Placement, len(cols))
		for i, c := range cols {
			p[i] = c - 1
		}
		if err := nqueens.Verify(p); err != nil || v.Verified == nil || !*v.Verified {
			return fmt.Sprintf("%s: placement %v: %v", path, cols, err)
		}
	}
	return ""
}
