// Command nqueens counts, solves and verifies n-queens boards.
//
// main only wires the process to run, which does everything else and is tested
// in-process: see main_test.go.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(code)
}
