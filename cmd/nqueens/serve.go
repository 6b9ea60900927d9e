package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/web"
)

// shutdownGrace is how long the requests in flight get to finish after Ctrl-C.
const shutdownGrace = 5 * time.Second

func newServeCmd(e *env) *cobra.Command {
	var addr string
	var public bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the board in a browser: solve, step through solutions, replay the searches with their code",
		Long: fmt.Sprintf(`Serve one web page and its JSON API, in English or Chinese (?lang=zh): the
board (solve with an algorithm and a seed, step through the solutions in
lexicographic order, all of them or one per symmetry class, apply the 8
symmetries; boards beyond %d are summarised, with the placement to download);
an animated replay of the seven searches the command runs: the four teaching
searches (classic backtracking, row DFS, cell DFS, cell DFS with row pruning),
the Las Vegas hybrid, Sosic–Gu's local search and the explicit construction
(play, pause, step, speed, keys; each step said in a sentence, the program
beside the board with the line of each event lit, live counters; two
searches side by side; every moment a link); and the lab's figures: the
Las Vegas U curve and the node and check bars.

The page is built into the binary and loads nothing from elsewhere. The API
caps n per endpoint, stops every computation after 10 s (504), runs one at a
time per core, two at least (others wait a second, then get 503), cuts off a
client that does not read its answer, and reads and writes no file; its errors
are JSON. GET /api/limits lists the caps.

The server listens on 127.0.0.1:8080 unless --addr says otherwise; an address
other machines can reach (0.0.0.0:8080, a public IP) needs --public as well.
Without --public it answers only requests addressed to localhost or a loopback
address on its port, and POSTs only from its own page (403 otherwise), so that
another site cannot reach it through a name of its own (DNS rebinding).
The URL goes to stderr; Ctrl-C stops the server (exit 130) after letting the
requests in flight finish.`, web.MaxDrawnN),
		Example: "  nqueens serve\n  nqueens serve --addr 127.0.0.1:9000\n  nqueens serve --addr 0.0.0.0:8080 --public",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return usagef("--addr %q: want HOST:PORT, such as 127.0.0.1:8080", addr)
			}
			if _, err := net.LookupPort("tcp", port); err != nil {
				return usagef("--addr %q: port %q is not a port number from 0 to 65535", addr, port)
			}
			if !public && !web.IsLoopback(host) {
				return usagef("--addr %s is not a loopback address (127.0.0.1, ::1, localhost); add --public to serve other machines", addr)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			srv := web.NewServer(web.Options{Addr: ln.Addr().String(), Public: public})
			fmt.Fprintf(e.stderr, "nqueens: serving http://%s/ (Ctrl-C stops)\n", ln.Addr())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ln) }()
			select {
			case err := <-done:
				return err
			case <-e.ctx.Done():
			}
			ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				srv.Close()
			}
			if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return interrupted{"interrupted: the server stopped"}
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0 picks a free one)")
	cmd.Flags().BoolVar(&public, "public", false, "allow an address other machines can reach, and answer requests addressed to any host name")
	return cmd
}
