package lasvegas

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrTooLarge reports an exact computation whose enumeration would exceed
// the work limit of [Exact].
var ErrTooLarge = errors.New("lasvegas: exact enumeration too large")

// ExactLimit bounds the work of one call of [Exact], in elementary steps
// (backtracking nodes plus, for the cell variant, probability updates).
const ExactLimit = 400_000_000

// maxExactCellFloats bounds the memory of the cell variant's exact
// computation: the number of states of one level times MaxDraws+1
// (16M float64s, 128 MB).
const maxExactCellFloats = 1 << 24

// MaxExactRowN is the largest board of the row variant's exact computation: its time
// grows about 6× per row (the table m = 0..n takes 0.7 s at n = 12, 25 s at n = 14 on
// a 2-core VM), so larger boards are refused at once rather than left to run for hours.
const MaxExactRowN = 14

// maxExactCellN is the largest board for the cell variant's exact
// computation (board states are packed 4 bits per row into a uint64).
const maxExactCellN = 15

// ExactResult is the expected cost of the Las Vegas algorithm computed by
// enumerating every random choice with its probability, as Brassard &
// Bratley do. All costs are in nodes explored (see [Stats].Explored),
// except the Checks* fields.
type ExactResult struct {
	// N, M, Variant and MaxDraws describe the algorithm (MaxDraws is the
	// effective bound of the cell variant, 0 for the row variant).
	N        int     `json:"n"`
	M        int     `json:"m"`
	Variant  Variant `json:"variant"`
	MaxDraws int     `json:"max_draws"`
	// P is the probability that one attempt succeeds.
	P float64 `json:"p"`
	// S is the expected number of nodes explored by a successful attempt.
	S float64 `json:"s"`
	// E is the expected number of nodes explored by a failed attempt (0
	// when attempts never fail).
	E float64 `json:"e"`
	// T = S + (1−P)·E/P is the expected number of nodes explored until
	// the first solution.
	T float64 `json:"t"`
	// ChecksS, ChecksE and ChecksT are the same three expectations
	// counted in checks.
	ChecksS float64 `json:"checks_s"`
	ChecksE float64 `json:"checks_e"`
	ChecksT float64 `json:"checks_t"`
}

// Attempts returns the expected number of attempts, 1/P.
func (r ExactResult) Attempts() float64 { return 1 / r.P }

// accum sums probability-weighted outcomes of attempts.
type accum struct {
	pOK, exOK, chOK    float64 // success: probability, Σ p·explored, Σ p·checks
	pBad, exBad, chBad float64 // failure
}

func (a *accum) add(ok bool, p, explored, checks float64) {
	if ok {
		a.pOK += p
		a.exOK += p * explored
		a.chOK += p * checks
	} else {
		a.pBad += p
		a.exBad += p * explored
		a.chBad += p * checks
	}
}

func (a *accum) result(r ExactResult) ExactResult {
	r.P = a.pOK
	if a.pOK > 0 {
		r.S = a.exOK / a.pOK
		r.ChecksS = a.chOK / a.pOK
	}
	if a.pBad > 0 {
		r.E = a.exBad / a.pBad
		r.ChecksE = a.chBad / a.pBad
	}
	// Probabilities sum to 1 up to rounding; use pBad rather than 1−pOK
	// so that P close to 1 keeps its precision.
	r.T = r.S + a.pBad*r.E/r.P
	r.ChecksT = r.ChecksS + a.pBad*r.ChecksE/r.P
	return r
}

// Exact computes the success probability and the expected cost of the Las
// Vegas algorithm with options opt (MaxChecks is ignored) on an n×n board,
// by enumerating every random choice with its probability in float64.
//
// For the row variant the enumeration visits every sequence of random
// columns (at most the nodes of the row search to depth m) and backtracks
// from each; n = 8 takes microseconds, n = 12 a fraction of a second. For
// the cell variant it follows, for every set of non-attacking queens of up
// to m queens, the probability distribution of the number of draws spent,
// which is feasible up to about n = 8 (the whole table m = 0..8 for n = 8
// takes a few seconds).
// Both return ErrTooLarge when the work would exceed ExactLimit steps or
// the cell variant's states would need more than 128 MB, and ctx.Err()
// when cancelled.
func Exact(ctx context.Context, n int, opt Options) (ExactResult, error) {
	if err := checkArgs(n, opt); err != nil {
		return ExactResult{}, err
	}
	e := &exact{ctx: ctx, done: ctx.Done(), board: newBoard(n), res: ExactResult{N: n, M: opt.M, Variant: opt.Variant}}
	if opt.Variant == Row {
		if n > MaxExactRowN {
			return ExactResult{}, fmt.Errorf("%w: the row variant's exact expectations need n ≤ %d (their time grows about 6× per row; a sampled sweep measures any n)", ErrTooLarge, MaxExactRowN)
		}
		e.rowPhase(0, 1)
	} else {
		if n > maxExactCellN {
			return ExactResult{}, fmt.Errorf("%w: cell variant needs n ≤ %d", ErrTooLarge, maxExactCellN)
		}
		e.res.MaxDraws = opt.MaxDraws
		if e.res.MaxDraws == 0 {
			e.res.MaxDraws = n * n
		}
		e.cell()
	}
	if e.err != nil {
		return ExactResult{}, e.err
	}
	return e.acc.result(e.res), nil
}

// ExactTable returns [Exact] for m = 0..n.
func ExactTable(ctx context.Context, n int, variant Variant, maxDraws int) ([]ExactResult, error) {
	var out []ExactResult
	for m := 0; m <= n; m++ {
		r, err := Exact(ctx, n, Options{Variant: variant, M: m, MaxDraws: maxDraws})
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

type exact struct {
	board
	ctx   context.Context
	done  <-chan struct{}
	res   ExactResult
	acc   accum
	work  int64
	err   error
	rows  []int
	nodes int64 // backtracking counters of the current completion
	check int64
}

// spend adds w steps of work and reports whether the computation must
// stop (limit reached or context cancelled).
func (e *exact) spend(w int64) bool {
	if e.err != nil {
		return true
	}
	old := e.work
	e.work += w
	if e.work > ExactLimit {
		e.err = fmt.Errorf("%w: more than %d steps for n=%d, m=%d (%s variant)", ErrTooLarge, ExactLimit, e.n, e.res.M, e.res.Variant)
		return true
	}
	if old>>16 != e.work>>16 && e.done != nil {
		select {
		case <-e.done:
			e.err = e.ctx.Err()
			return true
		default:
		}
	}
	return false
}

// complete runs the deterministic first-fit backtracking over the empty
// rows of the board, leaves the board unchanged, and returns whether it
// found a solution with its node and check counts.
func (e *exact) complete() (ok bool, nodes, checks int64) {
	e.rows = e.rows[:0]
	for r := 0; r < e.n; r++ {
		if !e.row[r] {
			e.rows = append(e.rows, r)
		}
	}
	e.nodes, e.check = 0, 0
	var placed []int
	ok = e.bt(0, &placed)
	for _, r := range placed {
		e.set(r, e.q[r], false)
	}
	e.spend(e.nodes)
	return ok, e.nodes, e.check
}

func (e *exact) bt(i int, placed *[]int) bool {
	e.nodes++
	if i == len(e.rows) {
		return true
	}
	if e.nodes&0xffff == 0 && e.spend(0xffff) {
		return false
	}
	r := e.rows[i]
	for c := 0; c < e.n; c++ {
		e.check++
		if !e.open(r, c) {
			continue
		}
		e.set(r, c, true)
		if e.bt(i+1, placed) {
			*placed = append(*placed, r)
			return true
		}
		e.set(r, c, false)
		if e.err != nil {
			return false
		}
	}
	return false
}

// rowPhase enumerates the random phase of the row variant from row r, reached
// with probability p.
func (e *exact) rowPhase(r int, p float64) {
	if e.spend(1) {
		return
	}
	n, m := e.n, e.res.M
	if r == m {
		ok, nodes, checks := e.complete()
		// Explored: 1 + m random queens + nodes other than the root.
		e.acc.add(ok, p, float64(m+int(nodes)), float64(int64(n*m)+checks))
		return
	}
	var free []int
	for c := 0; c < n; c++ {
		if e.open(r, c) {
			free = append(free, c)
		}
	}
	if len(free) == 0 {
		e.acc.add(false, p, float64(1+r), float64(n*(r+1)))
		return
	}
	p /= float64(len(free))
	for _, c := range free {
		e.set(r, c, true)
		e.rowPhase(r+1, p)
		e.set(r, c, false)
		if e.err != nil {
			return
		}
	}
}

// cell computes the cell variant level by level. A state is a set of
// non-attacking queens packed 4 bits per row (column+1, 0 for an empty
// row); dist[t] is the probability that the attempt holds exactly this set
// right after draw t, its last queen placed by draw t.
func (e *exact) cell() {
	maxT := e.res.MaxDraws
	level := map[uint64][]float64{0: make([]float64, maxT+1)}
	level[0][0] = 1
	g := make([]float64, maxT+1)
	for j := 0; ; j++ {
		// The states in increasing order, not the map's: the sums of floats then come out
		// the same, to the last bit, on every run.
		keys := slices.Sorted(maps.Keys(level))
		if j == e.res.M {
			e.cellComplete(level, keys)
			return
		}
		next := make(map[uint64][]float64)
		for _, key := range keys {
			if !e.cellStep(key, level[key], j, g, next) {
				return
			}
		}
		level = next
	}
}

// cellComplete ends the attempts of the last level, the states of m queens (keys,
// in order): each is completed by backtracking, and its probability and draws added
// to the outcome.
func (e *exact) cellComplete(level map[uint64][]float64, keys []uint64) {
	m := e.res.M
	for _, key := range keys {
		dist := level[key]
		e.load(key)
		var pS, draws float64
		for t, d := range dist {
			pS += d
			draws += float64(t) * d
		}
		ok, nodes, checks := e.complete()
		e.unload(key)
		if e.err != nil {
			return
		}
		// Checks: every draw, then every square tried.
		e.acc.add(ok, pS, float64(m+int(nodes)), 0)
		if ok {
			e.acc.chOK += draws + pS*float64(checks)
		} else {
			e.acc.chBad += draws + pS*float64(checks)
		}
	}
}

// cellStep draws the next queen from the state key of j queens, with the distribution
// dist of its draws: it adds the attempts that fail here to the outcome and the
// state's share to the distributions of its children in next (g is scratch of
// MaxDraws+1 floats). It returns false when the computation must stop.
func (e *exact) cellStep(key uint64, dist []float64, j int, g []float64, next map[uint64][]float64) bool {
	n, maxT := e.n, e.res.MaxDraws
	nn := float64(n * n)
	e.load(key)
	var free []int
	for k := 0; k < n*n; k++ {
		if e.open(k/n, k%n) {
			free = append(free, k)
		}
	}
	if e.spend(int64(maxT) * int64(1+len(free))) {
		return false
	}
	fail := cellDraws(dist, g, 1-float64(len(free))/nn)
	if fail > 0 {
		e.acc.add(false, fail, float64(1+j), 0)
		e.acc.chBad += fail * float64(maxT)
	}
	for _, k := range free {
		child := key | uint64(k%n+1)<<(4*(k/n))
		d := next[child]
		if d == nil {
			if len(next)*(maxT+1) > maxExactCellFloats {
				e.err = fmt.Errorf("%w: more than %d states of %d queens for n=%d (cell variant)", ErrTooLarge, len(next), j+1, n)
				return false
			}
			d = make([]float64, maxT+1)
			next[child] = d
		}
		for u := j + 1; u <= maxT; u++ {
			d[u] += g[u] / nn
		}
	}
	e.unload(key)
	return true
}

// cellDraws fills g and returns the probability that the attempt fails at a state whose
// draws are distributed as dist, when a draw misses its free cells with probability
// reject.
func cellDraws(dist, g []float64, reject float64) (fail float64) {
	maxT := len(g) - 1
	// g[u] = Σ_{t<u} dist[t]·reject^(u−t−1): the probability of
	// a success at draw u after the last queen, summed over the
	// cells, is g[u]·len(free)/n².
	g[0] = 0
	for u := 1; u <= maxT; u++ {
		g[u] = g[u-1]*reject + dist[u-1]
	}
	// The attempt fails here if no draw left succeeds.
	rp := 1.0
	for t := maxT; t >= 0; t-- {
		fail += dist[t] * rp
		rp *= reject
	}
	return fail
}

func (e *exact) load(key uint64) {
	for r := 0; r < e.n; r++ {
		if c := int(key>>(4*r)&15) - 1; c >= 0 {
			e.set(r, c, true)
		}
	}
}

func (e *exact) unload(key uint64) {
	for r := 0; r < e.n; r++ {
		if c := int(key>>(4*r)&15) - 1; c >= 0 {
			e.set(r, c, false)
		}
	}
}
