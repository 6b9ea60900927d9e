package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
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
	MaxTraceN      int   // largest n of /api/trace (12)
	MaxTraceEvents int   // events of one trace (200,000, about 2.5 MB of JSON)
	MaxLabN        int   // largest n of /api/lab/backtrack (10)
	MaxSweepN      int   // largest n of a sampled /api/lab/lasvegas sweep (40)
	MaxTrials      int   // runs per m of a sampled sweep (100)
	MaxBodyBytes   int64 // request body (64 KiB)

	// Timeout bounds each computation (10 s): past it the request gets 504.
	Timeout time.Duration
	// MaxConcurrent is the number of computations that run at once (GOMAXPROCS, at
	// least 2); a request waits QueueWait (1 s; negative: not at all) for a slot, then
	// gets 503.
	MaxConcurrent int
	QueueWait     time.Duration
}

// The fixed limits of the exact Las Vegas tables and of a sampled sweep's runs.
const (
	maxExactRowN  = 10        // the row variant's whole table m = 0..n in about a second
	maxExactCellN = 7         // the cell variant's, likewise
	sweepBudget   = 1_000_000 // checks per run of a sampled sweep before it is censored
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
	def(&o.MaxTraceEvents, 200_000)
	def(&o.MaxLabN, 10)
	def(&o.MaxSweepN, 40)
	def(&o.MaxTrials, 100)
	def(&o.MaxConcurrent, max(2, runtime.GOMAXPROCS(0)))
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 64 << 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.QueueWait == 0 {
		o.QueueWait = time.Second
	}
	return o
}

//go:embed static
var staticFS embed.FS

// staticFiles maps the paths the page is served under to the embedded files.
var staticFiles = map[string]struct{ file, kind string }{
	"/":            {"static/index.html", "text/html; charset=utf-8"},
	"/app.js":      {"static/app.js", "text/javascript; charset=utf-8"},
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

type route struct {
	method string
	limit  bool // run in a slot of the concurrency cap, under the timeout
	ep     endpoint
}

type server struct {
	opt    Options
	slots  chan struct{}
	routes map[string]route
}

// New returns the handler of the page and of its API, with the limits of opt.
func New(opt Options) http.Handler {
	s := &server{opt: opt.withDefaults()}
	s.slots = make(chan struct{}, s.opt.MaxConcurrent)
	s.routes = map[string]route{
		"/api/limits":        {http.MethodGet, false, s.limits},
		"/api/solve":         {http.MethodGet, true, s.solve},
		"/api/placement.txt": {http.MethodGet, true, s.placementText},
		"/api/solutions":     {http.MethodGet, true, s.solutions},
		"/api/count":         {http.MethodGet, true, s.count},
		"/api/transform":     {http.MethodPost, true, s.transform},
		"/api/trace":         {http.MethodGet, true, s.trace},
		"/api/lab/backtrack": {http.MethodGet, true, s.labBacktrack},
		"/api/lab/lasvegas":  {http.MethodGet, true, s.labLasVegas},
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
		// Writing a large placement (10^7 queens are 80 MB of text) comes after the
		// computation's own timeout.
		WriteTimeout:   o.Timeout + time.Minute,
		IdleTimeout:    time.Minute,
		MaxHeaderBytes: 16 << 10,
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

func (s *server) serveAPI(w http.ResponseWriter, r *http.Request, rt route) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != rt.method {
		w.Header().Set("Allow", rt.method)
		writeError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, rt.method, r.Method)})
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
	ctx := r.Context()
	if rt.limit {
		if !s.acquire(ctx) {
			w.Header().Set("Retry-After", "1")
			writeError(w, &apiError{status: http.StatusServiceUnavailable,
				msg: fmt.Sprintf("busy: %d computations are running; try again in a moment", cap(s.slots))})
			return
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
		writeError(w, err)
		return
	}
	if f, ok := v.(textFile); ok {
		f.write(w)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// acquire takes a slot for a computation, waiting up to QueueWait for one.
func (s *server) acquire(ctx context.Context) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	if s.opt.QueueWait < 0 {
		return false
	}
	t := time.NewTimer(s.opt.QueueWait)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// apiError is an error with the status code that goes with it; limit, when set, is the
// cap a parameter went past.
type apiError struct {
	status int
	msg    string
	limit  int64
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
	case errors.As(err, &mb):
		status, body = http.StatusRequestEntityTooLarge, errorBody{Error: bodyTooLarge(mb.Limit).Error(), Limit: mb.Limit}
	case errors.As(err, &se):
		status = http.StatusBadRequest
	case errors.Is(err, nqueens.ErrNoSolution):
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
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// number is a float64 that JSON writes as null when it is not finite (the expected cost
// of an attempt that never succeeds).
type number float64

func (x number) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(x), 'g', -1, 64), nil
}
