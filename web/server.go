package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
)

// MaxDrawnN is the largest board the page draws square by square; larger boards are
// summarised, with their placement to download.
const MaxDrawnN = 40

// Options configures the handler. The zero value of every field means the default given
// with it; negative values are treated as zero, except for QueueWait.
type Options struct {
	MaxSolveN      int   // largest n of /api/solve and /api/placement.txt (10^7)
	MaxColumnsN    int   // largest n whose columns /api/solve returns in JSON, and of /api/transform (1000)
	MaxEnumerateN  int   // largest n of /api/solutions (32, the enumerator's own limit)
	MaxIndex       int   // largest index of /api/solutions (10^6)
	MaxCountN      int   // largest n of /api/count (16)
	MaxTraceN      int   // largest n of /api/trace of a teaching search (12)
	MaxReplayN     int   // largest n of /api/trace of the Las Vegas hybrid or the local search (1000)
	MaxTraceEvents int   // events of one trace (200,000, about 2.5 MB of JSON)
	MaxLabN        int   // largest n of /api/lab/backtrack (10)
	MaxSweepN      int   // largest n of a sampled /api/lab/lasvegas sweep (40)
	MaxTrials      int   // runs per m of a sampled sweep (100)
	MaxBodyBytes   int64 // request body (64 KiB)

	// Timeout bounds each computation (10 s): past it the request gets 504.
	Timeout time.Duration
	// MaxConcurrent is the number of computations that run at once (GOMAXPROCS, at
	// least 2); a request waits QueueWait (1 s; negative: not at all) for a slot, then
	// gets 503. The slot is free again once the answer is computed: a client that reads
	// it slowly holds none.
	MaxConcurrent int
	QueueWait     time.Duration
	// MaxDownloads is the number of placement downloads (/api/placement.txt) computed
	// or being sent at once (2×MaxConcurrent): each holds its placement, 4 bytes a
	// queen, until the client has read it. A download waits QueueWait for a place,
	// then gets 503.
	MaxDownloads int
	// WriteTimeout bounds the sending of an answer once it is computed: the client must
	// take each 64 KiB of it within WriteTimeout (10 s), and the whole answer within
	// WriteTimeout plus the time its bytes take at 32 KiB/s. A slower client is cut off.
	WriteTimeout time.Duration

	// Addr is the address the server listens on (HOST:PORT, optional) and Public says
	// whether it answers requests addressed to any host. Unless Public, a request whose
	// Host header is not localhost or a loopback address (with Addr's port, when Addr is
	// set) gets 403, and so does a POST from a page of another origin: a site whose name
	// resolves to 127.0.0.1 cannot reach the server from a browser (DNS rebinding).
	Addr   string
	Public bool
}

// The fixed limits of the exact Las Vegas tables and of a sampled sweep's runs.
const (
	maxExactRowN  = 10        // the row variant's whole table m = 0..n in about a second
	maxExactCellN = 7         // the cell variant's, likewise
	sweepBudget   = 1_000_000 // checks per run of a sampled sweep before it is censored
)

// The limits of a request's head and of the sending of an answer.
const (
	maxRequestURI   = 8 << 10  // the target of the request line (414 past it)
	maxHeaderBytes  = 16 << 10 // the header fields (431 past them)
	serverHeadBytes = 1 << 20  // what the http.Server reads before it answers 431 itself, in plain text
	writeChunk      = 64 << 10 // the piece of an answer a client must take within WriteTimeout
	minReadRate     = 32 << 10 // bytes a second: the whole answer's deadline
)

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxSolveN, 10_000_000)
	def(&o.MaxColumnsN, 1000)
	def(&o.MaxEnumerateN, nqueens.MaxEnumerateN)
	o.MaxEnumerateN = min(o.MaxEnumerateN, nqueens.MaxEnumerateN)
	def(&o.MaxIndex, 1_000_000)
	def(&o.MaxCountN, 16)
	def(&o.MaxTraceN, 12)
	def(&o.MaxReplayN, 1000)
	def(&o.MaxTraceEvents, 200_000)
	def(&o.MaxLabN, 10)
	def(&o.MaxSweepN, 40)
	def(&o.MaxTrials, 100)
	def(&o.MaxConcurrent, max(2, runtime.GOMAXPROCS(0)))
	def(&o.MaxDownloads, 2*o.MaxConcurrent)
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 64 << 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.QueueWait == 0 {
		o.QueueWait = time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	return o
}

//go:embed static
var staticFS embed.FS

// staticFiles maps the paths the page is served under to the embedded files.
var staticFiles = map[string]struct{ file, kind string }{
	"/":            {"static/index.html", "text/html; charset=utf-8"},
	"/app.js":      {"static/app.js", "text/javascript; charset=utf-8"},
	"/replay.js":   {"static/replay.js", "text/javascript; charset=utf-8"},
	"/i18n.js":     {"static/i18n.js", "text/javascript; charset=utf-8"},
	"/style.css":   {"static/style.css", "text/css; charset=utf-8"},
	"/favicon.svg": {"static/favicon.svg", "image/svg+xml"},
}

// contentPolicy lets the page load nothing from another origin and run no inline script.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// A job is the computation of a request, run under the timeout and in a slot.
type job func(ctx context.Context) (any, error)

// An endpoint validates a request and returns its job; errors here cost no slot.
type endpoint func(r *http.Request) (job, error)

// What a route's job holds besides the request (none: it only reads the options).
const (
	slot     = 1 << iota // a slot of the concurrency cap, under the timeout, while it computes
	download             // a place among MaxDownloads, until its answer is sent
)

type route struct {
	method string
	needs  int // slot, download
	ep     endpoint
}

type server struct {
	opt       Options
	port      string // of Addr, "" when unknown
	slots     chan struct{}
	downloads chan struct{}
	routes    map[string]route
}

// New returns the handler of the page and of its API, with the limits of opt.
func New(opt Options) http.Handler {
	s := &server{opt: opt.withDefaults()}
	if _, port, err := net.SplitHostPort(s.opt.Addr); err == nil {
		s.port = port
	}
	s.slots = make(chan struct{}, s.opt.MaxConcurrent)
	s.downloads = make(chan struct{}, s.opt.MaxDownloads)
	s.routes = map[string]route{
		"/api/limits":        {http.MethodGet, 0, s.limits},
		"/api/solve":         {http.MethodGet, slot, s.solve},
		"/api/placement.txt": {http.MethodGet, slot | download, s.placementText},
		"/api/solutions":     {http.MethodGet, slot, s.solutions},
		"/api/count":         {http.MethodGet, slot, s.count},
		"/api/transform":     {http.MethodPost, slot, s.transform},
		"/api/trace":         {http.MethodGet, slot, s.trace},
		"/api/lab/backtrack": {http.MethodGet, slot, s.labBacktrack},
		"/api/lab/lasvegas":  {http.MethodGet, slot, s.labLasVegas},
	}
	return s
}

// NewServer returns an http.Server for the handler of opt, with timeouts on every phase
// of a connection so that a slow or idle client cannot hold it.
func NewServer(opt Options) *http.Server {
	o := opt.withDefaults()
	return &http.Server{
		Handler:           New(o),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		// Until the first byte of an answer: the waits for a slot and the computation.
		// Once computed, an answer is sent under deadlines of its own (Options.WriteTimeout).
		WriteTimeout: o.Timeout + 2*o.QueueWait + time.Minute,
		IdleTimeout:  time.Minute,
		// The handler refuses a request line or header past its own, smaller limits
		// with a JSON error; past this one the http.Server answers 431 in plain text.
		MaxHeaderBytes: serverHeadBytes,
	}
}

// IsLoopback reports whether host (a name or an address, without port) stays on this
// machine: "localhost" or a loopback address. The empty host, all interfaces, does not.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if err := s.checkHead(r); err != nil {
		writeError(w, err)
		return
	}
	if rt, ok := s.routes[r.URL.Path]; ok {
		s.serveAPI(w, r, rt)
		return
	}
	if f, ok := staticFiles[r.URL.Path]; ok {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			writeError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("%s takes GET, not %s", r.URL.Path, r.Method)})
			return
		}
		b, err := fs.ReadFile(staticFS, f.file)
		if err != nil {
			writeError(w, err)
			return
		}
		h.Set("Content-Type", f.kind)
		h.Set("Content-Security-Policy", contentPolicy)
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(b)
		}
		return
	}
	writeError(w, &apiError{status: http.StatusNotFound, msg: fmt.Sprintf("no such page or endpoint: %s", r.URL.Path)})
}

// checkHead refuses a request whose line or header is past the handler's limits, and,
// unless Public, one addressed to a host other than this machine's loopback (or, for a
// POST, sent by a page of another origin).
func (s *server) checkHead(r *http.Request) error {
	if len(r.RequestURI) > maxRequestURI {
		return &apiError{status: http.StatusRequestURITooLong, limit: maxRequestURI,
			msg: fmt.Sprintf("the request line's target is %d bytes long, more than %d", len(r.RequestURI), maxRequestURI)}
	}
	size := 0
	for k, vs := range r.Header {
		for _, v := range vs {
			size += len(k) + len(v) + 4 // "K: V\r\n"
		}
	}
	if size > maxHeaderBytes {
		return &apiError{status: http.StatusRequestHeaderFieldsTooLarge, limit: maxHeaderBytes,
			msg: fmt.Sprintf("the request header is %d bytes long, more than %d", size, maxHeaderBytes)}
	}
	if s.opt.Public {
		return nil
	}
	if !s.localHost(r.Host) {
		return &apiError{status: http.StatusForbidden, msg: fmt.Sprintf(
			"Host %q is not this server's address: it answers only requests to localhost or a loopback address%s (serve --public answers any)",
			r.Host, s.portNote())}
	}
	if o := r.Header.Get("Origin"); o != "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
		if u, err := url.Parse(o); err != nil || u.Scheme != "http" || !strings.EqualFold(u.Host, r.Host) {
			return &apiError{status: http.StatusForbidden, msg: fmt.Sprintf("a %s from origin %q is refused: only the server's own page (http://%s) may send one", r.Method, o, r.Host)}
		}
	}
	return nil
}

// localHost reports whether a Host header names this machine's loopback, with the port
// the server listens on when it is known (80 when the header has none). The empty Host
// of an HTTP/1.0 request names nothing and passes.
func (s *server) localHost(host string) bool {
	if host == "" {
		return true
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, "80"
	}
	return IsLoopback(name) && (s.port == "" || s.port == "0" || port == s.port)
}

func (s *server) portNote() string {
	if s.port == "" || s.port == "0" {
		return ""
	}
	return " on port " + s.port
}

func (s *server) serveAPI(w http.ResponseWriter, r *http.Request, rt route) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != rt.method && (rt.method != http.MethodGet || r.Method != http.MethodHead) {
		allow := rt.method
		if rt.method == http.MethodGet {
			allow = "GET, HEAD"
		}
		w.Header().Set("Allow", allow)
		writeError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, allow, r.Method)})
		return
	}
	if r.ContentLength > s.opt.MaxBodyBytes {
		writeError(w, bodyTooLarge(s.opt.MaxBodyBytes))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxBodyBytes)
	run, err := rt.ep(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if rt.needs&download != 0 {
		if !s.acquire(r.Context(), s.downloads) {
			writeError(w, busy(fmt.Sprintf("%d placements are being computed or sent", cap(s.downloads))))
			return
		}
		defer func() { <-s.downloads }()
	}
	v, err := s.compute(r.Context(), rt.needs&slot != 0, run)
	if err != nil {
		writeError(w, err)
		return
	}
	switch v := v.(type) {
	case textFile:
		v.write(r.Context(), w, r.Method == http.MethodHead, s.sender(w, v.maxSize()))
	case jsonBody:
		writeJSONBytes(s.sender(w, int64(len(v))), w, http.StatusOK, v)
	}
}

// compute runs a job, in a slot of the concurrency cap and under the timeout when inSlot,
// and returns its answer ready to send: a textFile or a jsonBody, encoded. The slot is
// free again before the first byte goes out, so a client that reads slowly holds none.
func (s *server) compute(ctx context.Context, inSlot bool, run job) (any, error) {
	if inSlot {
		if !s.acquire(ctx, s.slots) {
			return nil, busy(fmt.Sprintf("%d computations are running", cap(s.slots)))
		}
		defer func() { <-s.slots }()
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opt.Timeout)
		defer cancel()
	}
	v, err := run(ctx)
	if err == nil && ctx.Err() != nil {
		// A job that returned after its context ended may hold partial work: never serve it.
		err = ctx.Err()
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = &apiError{status: http.StatusGatewayTimeout, msg: fmt.Sprintf("the computation took longer than %v and was stopped", s.opt.Timeout)}
		}
		return nil, err
	}
	if f, ok := v.(textFile); ok {
		return f, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	return jsonBody(b), nil
}

// jsonBody is an answer encoded as JSON, without its final newline.
type jsonBody []byte

// acquire takes a place in sem, waiting up to QueueWait for one.
func (s *server) acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	if s.opt.QueueWait < 0 {
		return false
	}
	t := time.NewTimer(s.opt.QueueWait)
	defer t.Stop()
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// sender returns the writer of an answer of at most size bytes: before each 64 KiB it
// sets the connection's write deadline to WriteTimeout from then, but never past the
// deadline of the whole answer, WriteTimeout plus size at minReadRate. A client that
// stops reading, or reads too slowly, is cut off there and its handler returns.
func (s *server) sender(w http.ResponseWriter, size int64) io.Writer {
	whole := s.opt.WriteTimeout + time.Duration(float64(size)/minReadRate*float64(time.Second))
	return &deadlineWriter{w: w, rc: http.NewResponseController(w), stall: s.opt.WriteTimeout, end: time.Now().Add(whole)}
}

type deadlineWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	stall time.Duration
	end   time.Time
}

func (d *deadlineWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		k := min(len(p), writeChunk)
		t := time.Now().Add(d.stall)
		if t.After(d.end) {
			t = d.end
		}
		// A writer without deadlines (a test's recorder) is written all the same.
		d.rc.SetWriteDeadline(t)
		m, err := d.w.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// apiError is an error with the status code that goes with it; limit, when set, is the
// cap a parameter went past; retry asks the client to try again in a second.
type apiError struct {
	status int
	msg    string
	limit  int64
	retry  bool
}

func busy(what string) error {
	return &apiError{status: http.StatusServiceUnavailable, retry: true, msg: "busy: " + what + "; try again in a moment"}
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, a...)}
}

func bodyTooLarge(limit int64) error {
	return &apiError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("the request body is larger than %d bytes", limit), limit: limit}
}

type errorBody struct {
	Error string `json:"error"`
	Limit int64  `json:"limit,omitempty"`
}

// writeError writes err as {"error": ...} with the status code its kind calls for.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	var se *nqueens.SizeError
	var me *nqueens.MemoryError
	var mb *http.MaxBytesError
	status, body := http.StatusInternalServerError, errorBody{Error: err.Error()}
	switch {
	case errors.As(err, &ae):
		status, body.Limit = ae.status, ae.limit
		if ae.retry {
			w.Header().Set("Retry-After", "1")
		}
	case errors.As(err, &mb):
		status, body = http.StatusRequestEntityTooLarge, errorBody{Error: bodyTooLarge(mb.Limit).Error(), Limit: mb.Limit}
	case errors.As(err, &se):
		status = http.StatusBadRequest
	case errors.Is(err, nqueens.ErrNoSolution), errors.Is(err, lab.ErrNoCompletionFound):
		status = http.StatusNotFound
	case errors.As(err, &me):
		status = http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this.
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: "internal error: " + err.Error()})
	}
	writeJSONBytes(w, w, status, b)
}

// writeJSONBytes sends b and a newline through body, with the headers of w.
func writeJSONBytes(body io.Writer, w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	body.Write(append(b, '\n')) // a write error means the client left or was too slow
}
