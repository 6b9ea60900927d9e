// Command listloop is the yardstick of bench/list.sh: it writes every solution of an n×n
// board as `nqueens list N` prints it (1-based columns, one line per solution, in
// lexicographic order) with a plain loop from solutions already in memory, and reports
// the time of that loop alone.
//
//	listloop N    prints the lines on stdout, then "n=N solutions=S seconds=T cpu_seconds=C"
//	              on stderr (T and C: wall and CPU time of the loop)
//
// The solutions are found first, untimed, by a textbook recursive bitboard search that
// shares no code with nqueens, and held as one byte per row (236 MB at n = 16). The timed
// loop is BenchmarkList14's what=plainloop: strconv.AppendInt per column into a reused
// line, one bufio.Writer (64 KiB) Write per line.
package main

import (
	"bufio"
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: listloop N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 1 || n > 20 {
		fmt.Fprintln(os.Stderr, "listloop: N must be an integer from 1 to 20")
		os.Exit(2)
	}
	sols := solve(n)
	start, cpu0 := time.Now(), cpuSeconds()
	bw := bufio.NewWriterSize(os.Stdout, 1<<16)
	var line []byte
	for i := 0; i < len(sols); i += n {
		line = line[:0]
		for r, c := range sols[i : i+n] {
			if r > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, int64(c)+1, 10)
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	if err := bw.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "listloop:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "n=%d solutions=%d seconds=%.4f cpu_seconds=%.4f\n", n, len(sols)/n,
		time.Since(start).Seconds(), cpuSeconds()-cpu0)
}

// cpuSeconds is the user and system time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// solve returns every solution in lexicographic order, n bytes (0-based columns) each.
func solve(n int) []byte {
	full := uint32(1)<<uint(n) - 1
	q := make([]byte, n)
	var out []byte
	var rec func(r int, cols, dl, dr uint32)
	rec = func(r int, cols, dl, dr uint32) {
		if r == n {
			out = append(out, q...)
			return
		}
		for f := full &^ (cols | dl | dr); f != 0; f &= f - 1 {
			bit := f & -f
			q[r] = byte(bits.TrailingZeros32(bit))
			rec(r+1, cols|bit, (dl|bit)<<1, (dr|bit)>>1)
		}
	}
	rec(0, 0, 0, 0)
	return out
}
