package web

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// withHost runs one request through h with the given Host header and, if not empty,
// Origin header.
func withHost(t *testing.T, h http.Handler, method, target, host, origin, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestHostCheck: unless Public, the server answers only requests addressed to the
// loopback (on its own port, when it knows it), and a POST only from its own page: a
// page of another site whose name resolves to 127.0.0.1 gets 403 (DNS rebinding).
func TestHostCheck(t *testing.T) {
	const transform = `{"columns":[2,4,1,3],"symmetry":"mirror"}`
	local := New(Options{})
	bound := New(Options{Addr: "127.0.0.1:8080"})
	public := New(Options{Addr: "0.0.0.0:8080", Public: true})
	for _, c := range []struct {
		h            http.Handler
		host, origin string
		method       string
		target       string
		status       int
	}{
		{local, "127.0.0.1:8080", "", "GET", "/api/solve?n=8", 200},
		{local, "localhost:9000", "", "GET", "/api/solve?n=8", 200},
		{local, "[::1]:8080", "", "GET", "/", 200},
		{local, "LOCALHOST", "", "GET", "/api/limits", 200},
		{local, "", "", "GET", "/api/limits", 200}, // HTTP/1.0 without Host
		{local, "evil.example:8080", "", "GET", "/api/solve?n=8", 403},
		{local, "evil.example:8080", "", "GET", "/", 403},
		{local, "127.0.0.1.evil.example", "", "GET", "/api/limits", 403},
		{local, "192.168.1.2:8080", "", "GET", "/api/limits", 403},
		{bound, "127.0.0.1:8080", "", "GET", "/api/limits", 200},
		{bound, "localhost:8080", "", "GET", "/api/limits", 200},
		{bound, "localhost:9000", "", "GET", "/api/limits", 403},
		{bound, "localhost", "", "GET", "/api/limits", 403}, // port 80
		{public, "evil.example:8080", "", "GET", "/api/solve?n=8", 200},
		{public, "203.0.113.7", "", "GET", "/", 200},
		// POST: no Origin (curl) or the page's own; another origin is refused.
		{bound, "127.0.0.1:8080", "", "POST", "/api/transform", 200},
		{bound, "127.0.0.1:8080", "http://127.0.0.1:8080", "POST", "/api/transform", 200},
		{bound, "localhost:8080", "http://LOCALHOST:8080", "POST", "/api/transform", 200},
		{bound, "127.0.0.1:8080", "http://evil.example", "POST", "/api/transform", 403},
		{bound, "127.0.0.1:8080", "http://127.0.0.1:9000", "POST", "/api/transform", 403},
		{bound, "127.0.0.1:8080", "https://127.0.0.1:8080", "POST", "/api/transform", 403},
		{bound, "127.0.0.1:8080", "null", "POST", "/api/transform", 403},
		{bound, "127.0.0.1:8080", "http://evil.example", "GET", "/api/limits", 200},
		{public, "evil.example", "http://other.example", "POST", "/api/transform", 200},
	} {
		body := ""
		if c.method == "POST" {
			body = transform
		}
		w := withHost(t, c.h, c.method, c.target, c.host, c.origin, body)
		if w.Code != c.status {
			t.Errorf("%s %s, Host %q, Origin %q: %d, want %d: %s", c.method, c.target, c.host, c.origin, w.Code, c.status, w.Body)
			continue
		}
		if c.status == 403 {
			want := "is not this server's address"
			if c.origin != "" {
				want = "from origin " + `"` + c.origin + `" is refused`
			}
			wantError(t, w, 403, want)
		}
	}
	e := wantError(t, withHost(t, bound, "GET", "/api/limits", "evil.example:8080", "", ""), 403, `Host "evil.example:8080" is not this server's address`)
	if !strings.Contains(e.Error, "on port 8080") || !strings.Contains(e.Error, "--public") {
		t.Errorf("the error does not say which port, or how to answer any host: %q", e.Error)
	}
}

// serveReal runs the handler of opt behind NewServer's http.Server, with its limits of
// a request's head, on a free loopback port.
func serveReal(t *testing.T, opt Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opt.Addr = ln.Addr().String()
	srv := NewServer(opt)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestOversizedHead: a request line or header past the limits gets a JSON error like
// every other refusal, from the real http.Server (which answers 431 in plain text
// itself past its own, larger limit).
func TestOversizedHead(t *testing.T) {
	url := serveReal(t, Options{})
	for _, c := range []struct {
		name   string
		target string
		header string
		status int
		want   string
	}{
		{"long target", "/api/solve?n=" + strings.Repeat("1", 30_000), "", 414, "the request line's target is 30013 bytes long, more than 8192"},
		{"long path", "/" + strings.Repeat("a", 9000), "", 414, "more than 8192"},
		{"long header", "/api/limits", strings.Repeat("x", 30_000), 431, "the request header is"},
		{"target at the limit", "/api/solve?n=8&seed=" + strings.Repeat("0", 8192-20), "", 200, ""},
	} {
		req, _ := http.NewRequest("GET", url+c.target, nil)
		if c.header != "" {
			req.Header.Set("X-Padding", c.header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e errorBody
		switch {
		case resp.StatusCode != c.status:
			t.Errorf("%s: %d, want %d: %.200s", c.name, resp.StatusCode, c.status, body)
		case c.status == 200:
		case resp.Header.Get("Content-Type") != "application/json; charset=utf-8" || json.Unmarshal(body, &e) != nil:
			t.Errorf("%s: not a JSON error: %q %.200s", c.name, resp.Header.Get("Content-Type"), body)
		case !strings.Contains(e.Error, c.want):
			t.Errorf("%s: error %q does not say %q", c.name, e.Error, c.want)
		}
	}
}

// TestHead: every GET endpoint answers HEAD with the headers of its GET and no body;
// the other methods are refused with Allow: GET, HEAD.
func TestHead(t *testing.T) {
	url := serveReal(t, Options{Timeout: 5 * time.Second})
	for _, c := range []struct {
		target, kind string
		status       int
	}{
		{"/api/limits", "application/json", 200},
		{"/api/solve?n=8", "application/json", 200},
		{"/api/solve?n=3", "application/json", 404},
		{"/api/solve?n=x", "application/json", 400},
		{"/api/placement.txt?n=1e6&algorithm=construct", "text/plain", 200},
		{"/api/solutions?n=8&index=5", "application/json", 200},
		{"/api/count?n=8", "application/json", 200},
		{"/api/trace?n=6", "application/json", 200},
		{"/api/lab/backtrack?n=6", "application/json", 200},
		{"/api/lab/lasvegas?n=6&exact=true", "application/json", 200},
		{"/", "text/html", 200},
		{"/api/transform", "application/json", 405},
	} {
		get, err := http.Get(url + c.target)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, get.Body)
		get.Body.Close()
		resp, err := http.Head(url + c.target)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// (The lengths of GET and HEAD may differ: a time, a random seed, the method named.)
		if resp.StatusCode != c.status || get.StatusCode != c.status || len(body) != 0 ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), c.kind) || resp.Header.Get("Content-Type") != get.Header.Get("Content-Type") ||
			c.kind == "application/json" && resp.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD %s: %d %q, %d bytes, length %q; GET: %d %q, length %q", c.target, resp.StatusCode, resp.Header.Get("Content-Type"),
				len(body), resp.Header.Get("Content-Length"), get.StatusCode, get.Header.Get("Content-Type"), get.Header.Get("Content-Length"))
		}
		if c.status == 405 && resp.Header.Get("Allow") != "POST" {
			t.Errorf("HEAD %s: Allow %q", c.target, resp.Header.Get("Allow"))
		}
	}
	req, _ := http.NewRequest("DELETE", url+"/api/count?n=8", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("DELETE: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

// TestValueAsSent: an error quotes the number the client wrote, not the value it was
// read as (a number past 2^63 was quoted as 9223372036854775807).
func TestValueAsSent(t *testing.T) {
	h := New(Options{})
	for target, want := range map[string]string{
		"/api/solve?n=99999999999999999999999":             "n = 99999999999999999999999 is more than this server allows for /api/solve (at most 10000000)",
		"/api/solve?n=1e8":                                 "n = 1e8 is more than",
		"/api/solve?n=1_000_000_000":                       "n = 1_000_000_000 is more than",
		"/api/count?n=1" + strings.Repeat("0", 60):         "n = 100000000000000000000000… (61 characters) is more than",
		"/api/solve?n=8&seed=1e30":                         "seed = 1e30 is not in 0..9007199254740991",
		"/api/solutions?n=8&index=18446744073709551616000": "index = 18446744073709551616000 is not in 0..1000000",
	} {
		wantError(t, get(t, h, target), 400, want)
	}
}
