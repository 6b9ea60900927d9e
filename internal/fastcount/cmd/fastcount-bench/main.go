// Command fastcount-bench runs the fastcount engine once and prints one line
// in the format of ../shared/bench/floor.c, for bench/count.sh:
//
//	n=N threads=T total=COUNT unique=U nodes=K seconds=S
//
// Usage: fastcount-bench N [THREADS]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/nqueens/nqueens/internal/fastcount"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "fastcount-bench:", err)
		os.Exit(2)
	}
}

func run(w io.Writer, args []string) error {
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
	t0 := time.Now()
	r, err := fastcount.Count(context.Background(), n, fastcount.Options{Workers: threads})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "n=%d threads=%d total=%d unique=%d nodes=%d seconds=%.3f\n",
		n, threads, r.Total, r.Unique, r.Nodes, time.Since(t0).Seconds())
	return nil
}
