package nqueens

import "github.com/nqueens/nqueens/internal/report"

// Progress says how far a long run has come. Every long-running entry point of this
// package reports it through the same hook, a Progress field of type func(Progress) in
// its options, in the manner of gonum/optimize's Recorder: one shape, whatever the run.
// The options that take it: CountOptions (Count), SolveOptions (Solve), EnumerateOptions
// (Enumerate, WriteSolutions), CompletionOptions (FindCompletion, CountCompletions),
// VerifyOptions (VerifyPlacements, VerifyBinary), and in package cluster ShardOptions
// (cluster.CountCheckpointed, cluster.CountShard) and cluster.AuditOptions; each
// documents its phases and units.
//
// The hook is called one call at a time, never concurrently, even when the run has many
// workers (their reports are serialised, from whichever goroutine finished the work);
// within a phase Done never decreases; and no call is made after the entry point has
// returned. The run waits for the hook: keep it cheap. A nil hook costs nothing.
type Progress struct {
	// Phase names what the run is doing; each entry point documents its phases
	// ("count", "list", "verify"...). A run may go through several, and come back to one.
	Phase string
	// Done is the work done in this phase, Total the work of the whole phase, in units of
	// the phase's choosing (documented with it): estimated cost for a count, solutions for
	// a listing, rows for a verification. Total is 0 when it is not known in advance.
	Done, Total uint64
}

// Fraction is Done/Total, from 0 to 1, or 0 when Total is not known.
func (p Progress) Fraction() float64 {
	if p.Total == 0 {
		return 0
	}
	return min(float64(p.Done)/float64(p.Total), 1)
}

// newReporter returns the reporter of hook (see internal/report, which keeps the promises
// above), nil when hook is nil. The caller closes it before it returns.
func newReporter(hook func(Progress)) *report.Reporter { return report.New(hook) }
