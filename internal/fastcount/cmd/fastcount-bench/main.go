// Command fastcount-bench runs the fastcount engine once and prints one line
// in the format of bench/yardstick/floor.c, for bench/count.sh:
//
//	n=N threads=T total=COUNT unique=U nodes=K seconds=S
//
// Usage: fastcount-bench N [THREADS]
//
// On SIGINT or SIGTERM it stops and prints the partial sums with
// complete=false. With FASTCOUNT_PROGRESS=1 it reports progress on stderr
// every ten seconds.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fastcount-bench:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, w, ew io.Writer, args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return fmt.Errorf("usage: fastcount-bench N [THREADS]")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	threads := 1
	if len(args) == 2 {
		if threads, err = strconv.Atoi(args[1]); err != nil {
			return err
		}
	}
	opt := fastcount.Options{Workers: threads}
	t0 := time.Now()
	if os.Getenv("FASTCOUNT_PROGRESS") != "" {
		var done, total atomic.Uint64
		opt.Progress = func(d, t uint64) { done.Store(d); total.Store(t) }
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		go func() {
			for range tick.C {
				if t := total.Load(); t > 0 {
					d := done.Load()
					el := time.Since(t0)
					eta := time.Duration(float64(el) * float64(t-d) / float64(max(d, 1)))
					fmt.Fprintf(ew, "progress %d/%d (%.1f%%) elapsed %v eta %v\n",
						d, t, 100*float64(d)/float64(t), el.Round(time.Second), eta.Round(time.Second))
				}
			}
		}()
	}
	r, err := fastcount.Count(ctx, n, opt)
	fmt.Fprintf(w, "n=%d threads=%d total=%d unique=%d nodes=%d seconds=%.3f complete=%v subs=%d/%d\n",
		n, threads, r.Total, r.Unique, r.Nodes, time.Since(t0).Seconds(), r.Complete, r.SubsDone, r.Subs)
	return err
}
