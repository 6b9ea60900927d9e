package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer that the command and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var servingRE = regexp.MustCompile(`serving (http://127\.0\.0\.1:[0-9]+/)`)

// startServe runs serve with args on a free loopback port and returns its URL, the
// channel of its exit code and its output; cancel stops it as Ctrl-C would.
func startServe(t *testing.T, args ...string) (url string, cancel context.CancelFunc, code chan int, stdout, stderr *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	code = make(chan int, 1)
	go func() {
		code <- run(ctx, strings.NewReader(""), stdout, stderr, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
	}()
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if m := servingRE.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no URL on stderr: %q", stderr.String())
		}
	}
	return url, cancel, code, stdout, stderr
}

// getHost asks url with the given Host header and returns the status and the body.
func getHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(body)
}

// TestServe starts the server on a free loopback port, asks it for the page and a
// solution, then stops it as Ctrl-C would: exit 130 after the requests are done.
func TestServe(t *testing.T) {
	url, cancel, code, stdout, stderr := startServe(t)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `<canvas id="board"`) {
		t.Errorf("GET %s: %d, %.80q", url, resp.StatusCode, page)
	}
	resp, err = http.Get(url + "api/solve?n=8&algorithm=backtrack")
	if err != nil {
		t.Fatal(err)
	}
	var sol struct{ Columns []int }
	json.NewDecoder(resp.Body).Decode(&sol)
	resp.Body.Close()
	if len(sol.Columns) != 8 || sol.Columns[0] != 1 {
		t.Errorf("solve: %v", sol.Columns)
	}
	// Without --public, a request addressed to another name (DNS rebinding) is refused,
	// and so is one to the loopback on another port; localhost on this port is answered.
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	p, _ := strconv.Atoi(port)
	for host, want := range map[string]int{"evil.example": 403, "evil.example:" + port: 403,
		"localhost:" + strconv.Itoa(p+1): 403, "localhost:" + port: 200} {
		if status, body := getHost(t, url+"api/limits", host); status != want {
			t.Errorf("Host %s: %d %s, want %d", host, status, body, want)
		}
	}
	cancel()
	select {
	case c := <-code:
		if c != exitInterrupted || !strings.HasSuffix(stderr.String(), "nqueens: interrupted: the server stopped\n") || stdout.String() != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", c, stdout.String(), stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// TestServePublic: with --public the server answers requests addressed to any name.
func TestServePublic(t *testing.T) {
	url, cancel, code, _, _ := startServe(t, "--public")
	if status, body := getHost(t, url+"api/limits", "nqueens.example:8080"); status != 200 {
		t.Errorf("--public, Host nqueens.example: %d %s", status, body)
	}
	cancel()
	<-code
}

func TestServeErrors(t *testing.T) {
	runGolden(t, []goldenCase{
		{"serve-public", "", []string{"serve", "--addr", "0.0.0.0:8080"}},
		{"serve-all-interfaces", "", []string{"serve", "--addr", ":8080"}},
		{"serve-bad-addr", "", []string{"serve", "--addr", "localhost"}},
		{"serve-bad-port", "", []string{"serve", "--addr", "127.0.0.1:99999"}},
		{"serve-hostname", "", []string{"serve", "--addr", "nosuchhost.invalid:80"}},
		{"serve-args", "", []string{"serve", "8"}},
	})
	// A port in use is a failure, not a usage error.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, errs := runCLI(t, "", "serve", "--addr", ln.Addr().String())
	if code != exitFailure || !strings.Contains(errs, "address already in use") {
		t.Errorf("port in use: exit %d, %q", code, errs)
	}
}

// TestServeSolveNames: /api/solve speaks as solve --json does: the parameter algorithm=
// (algo= is refused), and the local search's counters under the same keys with the same
// values (it said k and final_swaps).
func TestServeSolveNames(t *testing.T) {
	url, cancel, code, _, _ := startServe(t)
	defer func() { cancel(); <-code }()
	for _, algo := range []string{"localsearch", "backtrack"} {
		resp, err := http.Get(url + "api/solve?n=1000&seed=7&algorithm=" + algo)
		if algo == "backtrack" {
			resp, err = http.Get(url + "api/solve?n=12&seed=7&algorithm=" + algo)
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var api map[string]any
		if resp.StatusCode != 200 || json.Unmarshal(body, &api) != nil {
			t.Fatalf("%s: %d %s", algo, resp.StatusCode, body)
		}
		n := "1000"
		if algo == "backtrack" {
			n = "12"
		}
		c, out, errs := runCLI(t, "", "solve", n, "--seed", "7", "--algorithm", algo, "--json")
		var cli map[string]any
		if c != 0 || json.Unmarshal([]byte(out), &cli) != nil {
			t.Fatalf("solve: exit %d %s", c, errs)
		}
		for k, v := range api {
			switch k {
			case "download", "seconds", "columns":
				continue
			}
			if w, ok := cli[k]; !ok || w != v {
				t.Errorf("%s: /api/solve says %s=%v, solve --json %v (present: %v)", algo, k, v, w, ok)
			}
		}
		for _, k := range []string{"attempts", "conflicts", "swaps", "restarts"} {
			if _, ok := api[k]; ok != (algo == "localsearch") {
				t.Errorf("%s: /api/solve has %s: %v", algo, k, ok)
			}
		}
	}
	resp, err := http.Get(url + "api/solve?n=8&algo=backtrack")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(body), "algo") {
		t.Errorf("algo=: %d %s, want 400 naming the parameter", resp.StatusCode, body)
	}
}

// TestServeHelp: serve --help names the searches the page replays, all seven (it said
// "the four teaching searches").
func TestServeHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), strings.NewReader(""), &out, &errOut, []string{"serve", "--help"}); code != 0 {
		t.Fatalf("serve --help: exit %d: %s", code, errOut.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	for _, s := range []string{"seven searches", "classic backtracking", "row DFS", "cell DFS with row pruning", "Las Vegas hybrid",
		"local search", "explicit construction", "English or Chinese"} {
		if !strings.Contains(help, s) {
			t.Errorf("serve --help does not say %q: %s", s, help)
		}
	}
	if strings.Contains(help, "replay of the four") {
		t.Errorf("serve --help still replays four searches: %s", help)
	}
}
