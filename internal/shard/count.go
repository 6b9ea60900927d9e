package shard

import (
	"context"
	"github.com/nqueens/nqueens/internal/atomicfile"
	"math/bits"
	"sync"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/rules"
)

// DefaultEvery is the checkpoint interval when CountOptions.Every is zero.
const DefaultEvery = 30 * time.Second

// CountOptions configures Count. The zero value counts on every core and
// writes no checkpoint.
type CountOptions struct {
	Workers int // goroutines; 0 means GOMAXPROCS
	// Checkpoint, if not empty, is the file where the progress is saved
	// every Every, and once more when the count ends or is interrupted.
	Checkpoint string
	Every      time.Duration // 0 means DefaultEvery
	Version    string        // the program version recorded in the checkpoint
	// Progress, if not nil, is called after each finished sub-problem with
	// the estimated cost done and to do, resumed work included. Calls never
	// overlap.
	Progress func(done, total uint64)
}

// Count counts the sub-problems of c.Todo that c.Done lacks and adds them to
// c, which must match p. On return c holds every finished sub-problem: it is
// Complete, or the count was interrupted by ctx (and Count returns ctx.Err()),
// or a write of the checkpoint failed, or a sum overflowed (rules.ErrOverflow).
func Count(ctx context.Context, p *fastcount.Plan, c *Checkpoint, opt CountOptions) error {
	done := make([]bool, c.Subs)
	for _, id := range c.Done.IDs() {
		done[id] = true
	}
	var todo []int
	var doneCost, totalCost uint64
	for _, id := range c.Todo.IDs() {
		totalCost += uint64(p.Subs[id].Cost)
		if done[id] {
			doneCost += uint64(p.Subs[id].Cost)
		} else {
			todo = append(todo, id)
		}
	}
	c.Runs++
	c.Version = opt.Version
	base := c.Seconds
	start := time.Now()

	var mu sync.Mutex // guards c and done
	var overflow bool
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// snapshot brings c up to date; the caller holds mu.
	snapshot := func() {
		c.Done = rangesOfMask(done)
		c.Seconds = base + time.Since(start).Seconds()
		c.Complete = c.Done.Len() == c.Todo.Len()
		c.Written = time.Now().UTC().Format(time.RFC3339)
	}
	save := func() error {
		if opt.Checkpoint == "" {
			return nil
		}
		mu.Lock()
		snapshot()
		b, err := seal(c, &c.Checksum)
		mu.Unlock()
		if err != nil {
			return err
		}
		return atomicfile.WriteBytes(opt.Checkpoint, b)
	}

	var saveErr error
	saverDone := make(chan struct{})
	stopSaver := make(chan struct{})
	go func() {
		defer close(saverDone)
		if opt.Checkpoint == "" {
			return
		}
		every := opt.Every
		if every <= 0 {
			every = DefaultEvery
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stopSaver:
				return
			case <-t.C:
				if err := save(); err != nil {
					saveErr = err
					cancel()
					return
				}
			}
		}
	}()

	err := p.CountSubs(ctx, todo, opt.Workers, func(id int, r fastcount.SubResult) {
		mu.Lock()
		defer mu.Unlock()
		var c1, c2 uint64
		t, c1 := bits.Add64(c.Total, r.Total, 0)
		b, c2 := bits.Add64(c.Burnside, r.Burnside, 0)
		if c1|c2 != 0 {
			overflow = true
			cancel()
			return
		}
		c.Total, c.Burnside, done[id] = t, b, true
		c.Nodes = addSat(c.Nodes, r.Nodes)
		doneCost += uint64(p.Subs[id].Cost)
		if opt.Progress != nil {
			opt.Progress(doneCost, totalCost)
		}
	})
	close(stopSaver)
	<-saverDone
	if ferr := save(); ferr != nil && saveErr == nil {
		saveErr = ferr
	}
	mu.Lock()
	snapshot()
	mu.Unlock()
	switch {
	case overflow:
		return rules.ErrOverflow
	case saveErr != nil:
		return saveErr
	}
	return err
}
