package main

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// lazyBar is a progress bar on stderr that appears only once a run has lasted
// progressDelay, so that quick runs print nothing. update may be called from many
// goroutines.
type lazyBar struct {
	mu    sync.Mutex
	w     io.Writer
	show  bool
	desc  string
	start time.Time
	bar   *progressbar.ProgressBar
}

const progressDelay = 1500 * time.Millisecond

func newLazyBar(w io.Writer, show bool, desc string) *lazyBar {
	return &lazyBar{w: w, show: show, desc: desc, start: time.Now()}
}

// update reports done of total units of work.
func (b *lazyBar) update(done, total uint64) {
	if !b.show {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		if time.Since(b.start) < progressDelay {
			return
		}
		b.bar = progressbar.NewOptions64(int64(total),
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(b.desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
	}
	b.bar.Set64(int64(done))
}

// finish removes the bar.
func (b *lazyBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Exit()
	}
}
