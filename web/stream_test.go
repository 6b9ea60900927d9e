//go:build unix

package web

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// slowDownload is a client of /api/placement.txt whose socket takes 4 KiB at a time, so
// that the server's writes block on it once the kernel's buffers are full (the text of
// 2·10^6 queens, 15 MB, is more than they hold).
type slowDownload struct {
	conn net.Conn
	resp *http.Response
	read atomic.Int64
}

const slowTarget = "/api/placement.txt?n=2e6&algorithm=construct"

func startSlowDownload(t *testing.T, addr string) *slowDownload {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", slowTarget, addr)
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 4096), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("slow download: %d %s", resp.StatusCode, b)
	}
	return &slowDownload{conn: conn, resp: resp}
}

// trickle reads 1 KiB every 5 ms (200 KiB/s) until stop is closed.
func (s *slowDownload) trickle(stop <-chan struct{}) {
	buf := make([]byte, 1024)
	for {
		select {
		case <-stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
		k, err := s.resp.Body.Read(buf)
		s.read.Add(int64(k))
		if err != nil {
			return
		}
	}
}

// TestSlowDownloads: two clients that read a large placement slowly (as curl
// --limit-rate does) hold the downloads they asked for, but no computation slot: while
// they read, every other call answers at once, with no 503.
func TestSlowDownloads(t *testing.T) {
	s := New(Options{MaxConcurrent: 2, QueueWait: 50 * time.Millisecond}).(*server)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close) // after the clients' connections are closed
	addr := srv.Listener.Addr().String()
	stop := make(chan struct{})
	done := make(chan struct{}, 2)
	var slow []*slowDownload
	for range 2 {
		d := startSlowDownload(t, addr)
		slow = append(slow, d)
		go func() {
			d.trickle(stop)
			done <- struct{}{}
		}()
	}
	defer func() {
		close(stop)
		<-done
		<-done
		for _, d := range slow {
			d.conn.Close() // the server's writes fail, and srv.Close need not wait
		}
	}()
	time.Sleep(200 * time.Millisecond)
	if k := len(s.downloads); k != 2 {
		t.Fatalf("%d downloads in flight, want the 2 slow ones still being sent", k)
	}
	for _, target := range []string{"/api/count?n=8", "/api/solve?n=8", "/api/solve?n=1e5&algorithm=construct",
		"/api/solutions?n=8&index=3", "/api/trace?n=5", "/api/lab/backtrack?n=6", "/api/placement.txt?n=100&algorithm=construct"} {
		start := time.Now()
		resp, err := http.Get(srv.URL + target)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s while two slow downloads are read: %d %.200s", target, resp.StatusCode, body)
		}
		t.Logf("%s: %d in %v", target, resp.StatusCode, time.Since(start).Round(time.Millisecond))
	}
	if k := len(s.downloads); k != 2 {
		t.Errorf("%d downloads in flight after the other calls, want 2: the slow ones ended early", k)
	}
	for i, d := range slow {
		t.Logf("slow download %d: %d bytes read so far", i, d.read.Load())
	}
}

// TestStalledDownload: a client that stops reading is cut off after WriteTimeout, which
// frees its download for the next client.
func TestStalledDownload(t *testing.T) {
	s := New(Options{MaxDownloads: 1, QueueWait: -1, WriteTimeout: 300 * time.Millisecond}).(*server)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close) // after the clients' connections are closed
	d := startSlowDownload(t, srv.Listener.Addr().String())
	start := time.Now()
	for len(s.downloads) != 0 {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the stalled download still holds its place after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("the stalled download was cut off after %v", time.Since(start).Round(time.Millisecond))
	// What the client gets is the text up to the cut, then an error, not a placement.
	full := 0 // the text's length: every column once, and a space or the newline after it
	for c := 1; c <= 2e6; c++ {
		full += len(fmt.Sprint(c)) + 1
	}
	n, err := io.Copy(io.Discard, d.resp.Body)
	if err == nil || n >= int64(full) {
		t.Errorf("the stalled client read %d of %d bytes and then %v; want a truncated text and an error", n, full, err)
	}
	resp, err := http.Get(srv.URL + "/api/placement.txt?n=8&algorithm=construct")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Count(string(body), " ") != 7 {
		t.Errorf("the next download: %d %q", resp.StatusCode, body)
	}
}

// deadlineRecorder is a ResponseRecorder with the write deadlines of a connection.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// TestSenderDeadlines: each 64 KiB gets WriteTimeout from when it is written, capped at
// the deadline of the whole answer.
func TestSenderDeadlines(t *testing.T) {
	s := New(Options{WriteTimeout: time.Second}).(*server)
	rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	start := time.Now()
	w := s.sender(rec, 200<<10)
	if k, err := w.Write(make([]byte, 200<<10)); k != 200<<10 || err != nil {
		t.Fatalf("wrote %d, %v", k, err)
	}
	if len(rec.deadlines) != 4 || rec.Body.Len() != 200<<10 {
		t.Fatalf("%d deadlines, %d bytes written; want 4 (one per 64 KiB), 204800", len(rec.deadlines), rec.Body.Len())
	}
	for _, d := range rec.deadlines {
		if el := d.Sub(start); el < time.Second || el > 2*time.Second {
			t.Errorf("deadline %v after the start, want about WriteTimeout (1 s)", el)
		}
	}
	// Past the whole answer's deadline (1 s + 200 KiB at 32 KiB/s), each write gets it.
	dw := w.(*deadlineWriter)
	dw.end = time.Now().Add(-time.Second)
	rec.deadlines = nil
	w.Write([]byte("x"))
	if len(rec.deadlines) != 1 || !rec.deadlines[0].Equal(dw.end) {
		t.Errorf("deadlines %v, want the whole answer's %v", rec.deadlines, dw.end)
	}
	if whole := time.Until(s.sender(rec, 320<<10).(*deadlineWriter).end); whole < 10*time.Second || whole > 12*time.Second {
		t.Errorf("320 KiB get %v in all, want 1 s + 10 s at 32 KiB/s", whole)
	}
}
