// Package plumbing holds the small helpers with no engine in them that the library and
// the command share, so that the command has no copy of them: what a number of workers
// means, a stream that ends when its context does, byte counts for people.
// TestCommandFrontDoor lets the command import it, as it does internal/atomicfile.
package plumbing

import (
	"context"
	"fmt"
	"iter"
	"runtime"
)

// Workers is what a Workers setting w means everywhere in nqueens (pool.Default): w when
// positive, else one goroutine per CPU (GOMAXPROCS).
func Workers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// Cancellable ends the stream seq early when ctx is done, looking every 2^20 items (a
// hot loop's stream: a row of a placement each): the consumer tells an interruption from
// the end by ctx.Err().
func Cancellable[T any](ctx context.Context, seq iter.Seq[T]) iter.Seq[T] {
	return func(yield func(T) bool) {
		i := 0
		for v := range seq {
			if i++; i&(1<<20-1) == 0 && ctx.Err() != nil {
				return
			}
			if !yield(v) {
				return
			}
		}
	}
}

// BytesText writes a byte count for people, the number and its unit joined by sep: with sep
// " ", 4.5 GB, 120 MB, 3 kB, and from 10^12 on 26 TB when tb is set (else 2810.5 GB);
// the root's MemoryError writes them with a space and terabytes, the command's plan
// without either (216MB, 1.6GB), so that its text line stays key=value pairs.
func BytesText(b int64, sep string, tb bool) string {
	switch {
	case tb && b >= 1e12:
		return fmt.Sprintf("%.0f%sTB", float64(b)/1e12, sep)
	case b >= 1e9:
		return fmt.Sprintf("%.1f%sGB", float64(b)/1e9, sep)
	case b >= 1e6:
		return fmt.Sprintf("%.0f%sMB", float64(b)/1e6, sep)
	}
	return fmt.Sprintf("%.0f%skB", float64(b)/1e3, sep)
}
