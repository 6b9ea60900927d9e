package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
)

// The endpoints of the board: solve, the text download, the enumeration, the count and
// the symmetries. Each one checks its parameters first and returns the job to run.

// maxSeed is the largest seed taken and given: 2^53−1, exact in JavaScript's numbers.
const maxSeed = 1<<53 - 1

// oneBased returns the columns of p, 1-based, as every JSON answer writes them.
func oneBased(p nqueens.Placement) []int32 {
	out := make([]int32, len(p))
	for i, c := range p {
		out[i] = c + 1
	}
	return out
}

// verified returns p when it passes Verify, an internal error otherwise: no placement
// leaves the server without that check.
func verified(p nqueens.Placement, what string) error {
	if err := nqueens.Verify(p); err != nil {
		return fmt.Errorf("internal error: %s gave an invalid placement: %w", what, err)
	}
	return nil
}

type limitsResponse struct {
	MaxDrawnN      int     `json:"max_drawn_n"`
	MaxSolveN      int     `json:"max_solve_n"`
	MaxColumnsN    int     `json:"max_columns_n"`
	MaxEnumerateN  int     `json:"max_enumerate_n"`
	MaxIndex       int     `json:"max_index"`
	MaxCountN      int     `json:"max_count_n"`
	MaxTraceN      int     `json:"max_trace_n"`
	MaxReplayN     int     `json:"max_replay_n"`
	MaxTraceEvents int     `json:"max_trace_events"`
	MaxLabN        int     `json:"max_lab_n"`
	MaxSweepN      int     `json:"max_sweep_n"`
	MaxExactRowN   int     `json:"max_exact_row_n"`
	MaxExactCellN  int     `json:"max_exact_cell_n"`
	MaxTrials      int     `json:"max_trials"`
	MaxBodyBytes   int64   `json:"max_body_bytes"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	MaxConcurrent  int     `json:"max_concurrent"`
}

func (s *server) limits(r *http.Request) (job, error) {
	if err := newParams(r).done(); err != nil {
		return nil, err
	}
	o := s.opt
	v := limitsResponse{MaxDrawnN, o.MaxSolveN, o.MaxColumnsN, o.MaxEnumerateN, o.MaxIndex, o.MaxCountN,
		o.MaxTraceN, o.MaxReplayN, o.MaxTraceEvents, o.MaxLabN, o.MaxSweepN, maxExactRowN, maxExactCellN, o.MaxTrials,
		o.MaxBodyBytes, o.Timeout.Seconds(), o.MaxConcurrent}
	return func(context.Context) (any, error) { return v, nil }, nil
}

type solveResponse struct {
	N         int     `json:"n"`
	Algorithm string  `json:"algorithm"`
	Seed      uint64  `json:"seed"`
	Verified  bool    `json:"verified"`
	Seconds   float64 `json:"seconds"`
	Columns   []int32 `json:"columns,omitempty"` // n ≤ MaxColumnsN only
	Download  string  `json:"download"`          // the same placement as a text file
	Nodes     uint64  `json:"nodes,omitempty"`   // backtracking
	// Local search only, 0 included (the names of solve --json).
	Attempts  *uint64 `json:"attempts,omitempty"`
	Conflicts *uint64 `json:"conflicts,omitempty"`
	Swaps     *uint64 `json:"swaps,omitempty"`
	Restarts  *uint64 `json:"restarts,omitempty"`
}

// solveParams reads n, algorithm and seed, shared by /api/solve and /api/placement.txt.
func (s *server) solveParams(r *http.Request) (n int, opt nqueens.SolveOptions, err error) {
	p := newParams(r)
	n = p.size(s.opt.MaxSolveN)
	opt.Algorithm = parsed(p, "algorithm", nqueens.Auto, nqueens.ParseAlgorithm)
	seed := p.int("seed", -1, 0, maxSeed)
	if err := p.done(); err != nil {
		return 0, opt, err
	}
	if err := opt.Algorithm.CheckSize(n); err != nil {
		if errors.Is(err, nqueens.ErrNoSolution) {
			err = fmt.Errorf("n = %d: %w", n, err)
		}
		return 0, opt, err
	}
	opt.Seed = uint64(seed)
	if seed < 0 {
		opt.Seed = rand.Uint64() & maxSeed
	}
	return n, opt, nil
}

func (s *server) solve(r *http.Request) (job, error) {
	n, opt, err := s.solveParams(r)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		start := time.Now()
		res, err := nqueens.Solve(ctx, n, opt)
		if err != nil {
			return nil, err
		}
		if err := verified(res.Placement, string(res.Algorithm)); err != nil {
			return nil, err
		}
		st := res.Stats
		out := solveResponse{N: n, Algorithm: string(res.Algorithm), Seed: opt.Seed, Verified: true,
			Seconds: time.Since(start).Seconds(), Nodes: st.Nodes,
			Download: fmt.Sprintf("/api/placement.txt?n=%d&algorithm=%s&seed=%d", n, res.Algorithm, opt.Seed)}
		if res.Algorithm == nqueens.LocalSearch {
			out.Attempts, out.Conflicts, out.Swaps, out.Restarts = &st.Attempts, &st.Conflicts, &st.Swaps, &st.Restarts
		}
		if n <= s.opt.MaxColumnsN {
			out.Columns = oneBased(res.Placement)
		}
		return out, nil
	}, nil
}

// textFile is a placement served as a text file to download.
type textFile struct {
	name string
	p    nqueens.Placement
}

// maxSize bounds the text's length: each column has at most as many digits as n, and a
// space or the newline after it.
func (f textFile) maxSize() int64 {
	return int64(len(f.p)) * int64(len(strconv.Itoa(len(f.p)))+1)
}

// write sends the headers through w and, unless head, the text through body, until ctx
// (the request's) ends.
func (f textFile) write(ctx context.Context, w http.ResponseWriter, head bool, body io.Writer) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.name))
	w.WriteHeader(http.StatusOK)
	if !head {
		nqueens.WritePlacement(ctx, body, nqueens.Text, f.p) // a write error means the client left or was too slow
	}
}

func (s *server) placementText(r *http.Request) (job, error) {
	n, opt, err := s.solveParams(r)
	if err != nil {
		return nil, err
	}
	if !r.URL.Query().Has("seed") && opt.Algorithm.Pick(n) == nqueens.LocalSearch {
		return nil, badRequest("parameter seed is missing: without it the download would not be the placement shown")
	}
	return func(ctx context.Context) (any, error) {
		res, err := nqueens.Solve(ctx, n, opt)
		if err != nil {
			return nil, err
		}
		if err := verified(res.Placement, string(res.Algorithm)); err != nil {
			return nil, err
		}
		return textFile{fmt.Sprintf("queens-%d-%s-seed%d.txt", n, res.Algorithm, opt.Seed), res.Placement}, nil
	}, nil
}

type solutionResponse struct {
	N         int     `json:"n"`
	Unique    bool    `json:"unique"`
	Index     int     `json:"index"` // 0-based, in lexicographic order
	Columns   []int32 `json:"columns"`
	ClassSize int     `json:"class_size,omitempty"` // unique only: the solutions this one stands for
	HasNext   bool    `json:"has_next"`
	Verified  bool    `json:"verified"`
}

func (s *server) solutions(r *http.Request) (job, error) {
	p := newParams(r)
	n := p.size(s.opt.MaxEnumerateN)
	index := int(p.int("index", 0, 0, int64(s.opt.MaxIndex)))
	unique := p.bool("unique", false)
	if err := p.done(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		out := solutionResponse{N: n, Unique: unique, Index: index}
		k := 0
		var bad error
		// One more than the index, to tell whether a next solution exists.
		res, err := nqueens.Enumerate(ctx, n, nqueens.EnumerateOptions{Unique: unique, Limit: uint64(index) + 2, Workers: 1},
			func(q nqueens.Placement, size int) bool {
				if k == index {
					if bad = verified(q, "the enumeration"); bad != nil {
						return false
					}
					out.Columns, out.ClassSize = oneBased(q), size
				}
				k++
				return true
			})
		switch {
		case err != nil:
			return nil, err
		case bad != nil:
			return nil, bad
		case res.Status == nqueens.NoSolution:
			return nil, fmt.Errorf("n = %d: %w", n, nqueens.ErrNoSolution)
		}
		if out.Columns == nil {
			what := "solutions"
			if unique {
				what = "classes of solutions"
			}
			return nil, &apiError{status: http.StatusNotFound, limit: int64(k - 1),
				msg: fmt.Sprintf("n = %d has %d %s (indexes 0..%d): index %d is past the last", n, k, what, k-1, index)}
		}
		if !unique {
			out.ClassSize = 0
		}
		out.HasNext, out.Verified = k > index+1, true
		return out, nil
	}, nil
}

type countResponse struct {
	N       int             `json:"n"`
	Total   nqueens.Uint128 `json:"total"`
	Unique  nqueens.Uint128 `json:"unique"`
	Seconds float64         `json:"seconds"`
}

func (s *server) count(r *http.Request) (job, error) {
	p := newParams(r)
	n := p.size(s.opt.MaxCountN)
	if err := p.done(); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) {
		start := time.Now()
		res, err := nqueens.Count(ctx, n, nqueens.CountOptions{Workers: 1})
		if err != nil {
			return nil, err
		}
		return countResponse{n, res.Total, res.Unique, time.Since(start).Seconds()}, nil
	}, nil
}

type transformRequest struct {
	Columns  []int64 `json:"columns"`
	Symmetry string  `json:"symmetry"`
}

type transformResponse struct {
	N         int     `json:"n"`
	Symmetry  string  `json:"symmetry"`
	Columns   []int32 `json:"columns"`   // the image of the placement
	Canonical []int32 `json:"canonical"` // the smallest image: the representative of the class
	ClassSize int     `json:"class_size"`
	Verified  bool    `json:"verified"`
}

// parseSymmetry maps a name of nqueens.Symmetry.String back to the symmetry.
func parseSymmetry(name string) (nqueens.Symmetry, bool) {
	for _, s := range nqueens.Symmetries() {
		if s.String() == name {
			return s, true
		}
	}
	return 0, false
}

func (s *server) transform(r *http.Request) (job, error) {
	if err := newParams(r).done(); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	var req transformRequest
	if err := dec.Decode(&req); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, err
		}
		return nil, badRequest("the body must be a JSON object {\"columns\": [...], \"symmetry\": \"...\"}: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, badRequest("the body must hold one JSON object, nothing after it")
	}
	n := len(req.Columns)
	switch {
	case n == 0:
		return nil, badRequest("columns is missing or empty")
	case n > s.opt.MaxColumnsN:
		return nil, &apiError{status: http.StatusBadRequest, limit: int64(s.opt.MaxColumnsN),
			msg: fmt.Sprintf("n = %d is more than this server allows for %s (at most %d)", n, r.URL.Path, s.opt.MaxColumnsN)}
	}
	sym, ok := parseSymmetry(req.Symmetry)
	if !ok {
		names := make([]string, len(nqueens.Symmetries()))
		for i, s := range nqueens.Symmetries() {
			names[i] = s.String()
		}
		return nil, badRequest("symmetry %q is not one of %s", req.Symmetry, strings.Join(names, ", "))
	}
	p := make(nqueens.Placement, n)
	for i, c := range req.Columns {
		if c < 1 || c > int64(n) {
			return nil, badRequest("row %d: column %d is off the board (1..%d)", i+1, c, n)
		}
		p[i] = int32(c - 1)
	}
	if err := nqueens.Verify(p); err != nil {
		return nil, badRequest("not a solution: %v", err)
	}
	return func(context.Context) (any, error) {
		q := sym.Apply(p)
		if err := verified(q, sym.String()); err != nil {
			return nil, err
		}
		c, size := nqueens.Canonical(p)
		if err := verified(c, "the canonical form"); err != nil {
			return nil, err
		}
		return transformResponse{N: n, Symmetry: sym.String(), Columns: oneBased(q), Canonical: oneBased(c), ClassSize: size, Verified: true}, nil
	}, nil
}
