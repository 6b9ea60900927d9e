package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
)

// lazyBar is a progress bar on stderr that appears only once a run has lasted delay
// (env.progressDelay), so that quick runs print nothing. update may be called from many
// goroutines.
type lazyBar struct {
	mu    sync.Mutex
	w     io.Writer
	show  bool
	desc  string
	start time.Time
	delay time.Duration
	bar   *progressbar.ProgressBar
}

// progressDelay is the time a run lasts before its progress shows: the default of
// env.progressDelay.
const progressDelay = 1500 * time.Millisecond

// progressFlags are --progress and --no-progress, which count, solve and list share.
type progressFlags struct{ always, never bool }

func (p *progressFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&p.always, "progress", false, "always show progress on stderr")
	fs.BoolVar(&p.never, "no-progress", false, "never show progress")
}

func (p progressFlags) check() error {
	if p.always && p.never {
		return usagef("--progress and --no-progress exclude each other")
	}
	return nil
}

// shown says whether progress goes to stderr: when asked, else when it is a terminal.
func (p progressFlags) shown(stderr io.Writer) bool {
	return p.always || (!p.never && isTerminal(stderr))
}

func newLazyBar(w io.Writer, show bool, desc string, delay time.Duration) *lazyBar {
	return &lazyBar{w: w, show: show, desc: desc, start: time.Now(), delay: delay}
}

// update reports done of total units of work. The units are the counter's own (its
// estimates of the sub-problems' costs), so the bar shows the share done and the time
// left, not the numbers.
func (b *lazyBar) update(done, total uint64) {
	if !b.show {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		if time.Since(b.start) < b.delay {
			return
		}
		b.bar = progressbar.NewOptions64(int64(total),
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(b.desc),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
		b.bar.Set64(int64(done))
		// The bar draws itself when the percentage changes: drawn now at 0%, a run
		// whose first percent takes long (complete 20 --count) says it is under way.
		if b.bar.State().CurrentPercent < 0.01 {
			b.bar.RenderBlank()
		}
		return
	}
	b.bar.Set64(int64(done))
}

// record is update as a hook of the library (nqueens.Progress).
func (b *lazyBar) record(p nqueens.Progress) { b.update(p.Done, p.Total) }

// finish removes the bar, finished or not: an interrupted run prints its partial line
// where the bar stood, not after it (the bar clears itself only when it reaches 100%).
func (b *lazyBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		if !b.bar.IsFinished() {
			b.bar.Clear()
		}
		b.bar.Exit()
	}
}

// lazyLine is a one-line progress report on stderr ("phase 45%"), rewritten in place,
// that appears only once a run has lasted delay (env.progressDelay).
type lazyLine struct {
	mu    sync.Mutex
	w     io.Writer
	show  bool
	start time.Time
	delay time.Duration
	last  time.Time
	shown bool
}

func newLazyLine(w io.Writer, show bool, delay time.Duration) *lazyLine {
	return &lazyLine{w: w, show: show, start: time.Now(), delay: delay}
}

// record is update as a hook of the library (nqueens.Progress): the phase, and the
// fraction of it done when its total is known.
func (l *lazyLine) record(p nqueens.Progress) {
	frac := -1.0
	if p.Total > 0 {
		frac = p.Fraction()
	}
	l.update(p.Phase, frac)
}

// update reports the phase and the fraction of it done (none when negative).
func (l *lazyLine) update(phase string, frac float64) {
	if !l.show {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.start) < l.delay || now.Sub(l.last) < 200*time.Millisecond {
		return
	}
	l.last, l.shown = now, true
	pct := "    "
	if frac >= 0 {
		pct = fmt.Sprintf("%3.0f%%", 100*frac)
	}
	fmt.Fprintf(l.w, "\r%-24s %s  %5.1fs", phase, pct, now.Sub(l.start).Seconds())
}

// finish erases the line.
func (l *lazyLine) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprintf(l.w, "\r%40s\r", "")
	}
}
