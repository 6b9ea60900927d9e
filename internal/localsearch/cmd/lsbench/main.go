// Command lsbench solves one board with the local search and verifies it, for
// bench/solve.sh until `nqueens solve --algo localsearch` exists, and for measuring the
// package's tuning knobs.
//
//	lsbench [-seed S] [-plain] [-retries R] N
//
// prints one line: n=N seconds=S ns_per_queen=P verify_seconds=V attempts=A k=K final_swaps=F
// final_failed=X retries=R restarts=T maxrss_kb=M
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/localsearch"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "lsbench:", err)
		os.Exit(1)
	}
}

func run(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("lsbench", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "PRNG seed")
	plain := fs.Bool("plain", false, "use the plain (non-prefetching) initial search")
	small := fs.Bool("smallpages", false, "do not ask for huge pages")
	retries := fs.Int("retries", 0, "Options.FinalRetries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: lsbench [-seed S] [-plain] [-retries R] N")
	}
	f, err := strconv.ParseFloat(fs.Arg(0), 64) // accepts 1e8
	if err != nil || f < 1 || f > float64(localsearch.MaxN) {
		return fmt.Errorf("bad N %q", fs.Arg(0))
	}
	n := int(f)
	var scratch []uint64
	if *small {
		scratch = make([]uint64, localsearch.ScratchWords(n))
	} else {
		scratch = localsearch.NewScratch(localsearch.ScratchWords(n))
	}
	start := time.Now()
	q, st, err := localsearch.Solve(context.Background(), n, localsearch.Options{
		Seed: *seed, Plain: *plain, SmallPages: *small, FinalRetries: *retries, Scratch: scratch,
	})
	solve := time.Since(start)
	if err != nil {
		return err
	}
	// The solver's bitsets are garbage now: collected before VerifyInPlace allocates its
	// own (as many words), the peak stays that of the solve.
	scratch = nil
	runtime.GC()
	start = time.Now()
	if err := nqueens.VerifyInPlace(q); err != nil {
		return fmt.Errorf("n=%d seed=%d: %w", n, *seed, err)
	}
	verify := time.Since(start)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Fprintf(stdout, "n=%d seconds=%.3f ns_per_queen=%.1f verify_seconds=%.3f attempts=%d k=%d final_swaps=%d final_failed=%d retries=%d restarts=%d maxrss_kb=%d\n",
		n, solve.Seconds(), float64(solve.Nanoseconds())/float64(n), verify.Seconds(), st.Attempts, st.K, st.FinalSwaps, st.FinalFailed, st.Retries, st.Restarts, ru.Maxrss)
	return nil
}
