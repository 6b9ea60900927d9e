// Package report keeps the promises of the public progress hooks (nqueens.Progress) for
// one run, for every package that takes a hook: the root and cluster. A Reporter
// serialises the calls of the hook, drops a report whose done is below the last one of
// its phase (workers may finish in any order), and makes no call once closed.
package report

import "sync"

// A Reporter passes the reports of one run to its hook. A nil *Reporter reports nothing.
type Reporter struct {
	mu     sync.Mutex
	hook   func(phase string, done, total uint64)
	phase  string
	done   uint64
	closed bool
}

// Progress is the shape of the public progress reports: nqueens.Progress.
type Progress interface {
	~struct {
		Phase       string
		Done, Total uint64
	}
}

// New returns the Reporter of hook, nil when hook is nil. The caller closes it before it
// returns.
func New[P Progress](hook func(P)) *Reporter {
	if hook == nil {
		return nil
	}
	return &Reporter{hook: func(phase string, done, total uint64) { hook(P{Phase: phase, Done: done, Total: total}) }}
}

// Report passes one report to the hook.
func (r *Reporter) Report(phase string, done, total uint64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || (phase == r.phase && done < r.done) {
		return
	}
	r.phase, r.done = phase, done
	r.hook(phase, done, total)
}

// Phase returns Report as a func(done, total) for one phase, nil when r is nil: the
// shape of the internal engines' hooks.
func (r *Reporter) Phase(phase string) func(done, total uint64) {
	if r == nil {
		return nil
	}
	return func(done, total uint64) { r.Report(phase, done, total) }
}

// Close ends the reports: after it returns, the hook is never called again.
func (r *Reporter) Close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}
