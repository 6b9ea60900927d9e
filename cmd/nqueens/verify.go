package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
)

type conflictJSON struct {
	Kind string `json:"kind"`
	Row1 int    `json:"row1,omitempty"`
	Col1 int    `json:"col1,omitempty"`
	Row2 int    `json:"row2"`
	Col2 int    `json:"col2"`
	Text string `json:"message"`
}

type verifyOutput struct {
	N        int           `json:"n"`
	Valid    bool          `json:"valid"`
	Conflict *conflictJSON `json:"conflict,omitempty"`
	Error    string        `json:"error,omitempty"`
}

func newVerifyCmd(e *env) *cobra.Command {
	var format string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify [FILE|-]",
		Short: "Check placements: exit 0 if all are valid, 1 naming the first attacking pair",
		Long: `Check placements read from FILE (or stdin when FILE is - or missing) in O(n).

Text input holds one or more placements: lines of 1-based columns, board
drawings, or JSON objects {"n":…,"columns":[…]}. Binary input is one
placement of little-endian uint32 columns, 0-based; a binary file is streamed
with 5 bits of memory per queen, so 10^9 queens need about 625 MB.
--format auto tells binary from text by its bytes.

Exit status: 0 when every placement is valid, 1 when one is not (the first
attacking pair is named, rows and columns 1-based), 2 for unreadable input.`,
		Example: "  nqueens solve 8 | nqueens verify\n  nqueens verify --format binary q.bin",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one FILE, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "auto" && format != "text" && format != "binary" {
				return usagef("unknown format %q (want auto, text or binary)", format)
			}
			name := "-"
			if len(args) == 1 {
				name = args[0]
			}
			var outs []verifyOutput
			var err error
			if name == "-" {
				outs, err = verifyReader(e, bufio.NewReaderSize(e.stdin, 1<<16), format)
			} else {
				outs, err = verifyFile(e, name, format)
			}
			if err != nil {
				var pe *nqueens.ParseError
				if errors.As(err, &pe) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
					return usageError{err}
				}
				return err
			}
			invalid := 0
			for i, o := range outs {
				if !o.Valid {
					invalid++
				}
				if asJSON {
					if err := printJSON(e.stdout, o); err != nil {
						return err
					}
					continue
				}
				prefix := ""
				if len(outs) > 1 {
					prefix = fmt.Sprintf("placement %d: ", i+1)
				}
				if o.Valid {
					fmt.Fprintf(e.stdout, "%svalid (n=%d)\n", prefix, o.N)
				} else {
					fmt.Fprintf(e.stdout, "%sinvalid (n=%d): %s\n", prefix, o.N, o.Conflict.Text)
				}
			}
			if invalid > 0 {
				return failure{err: fmt.Errorf("%d of %d placements invalid", invalid, len(outs)), silent: true}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "auto", "input format: auto, text or binary")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per placement")
	return cmd
}

// result turns Verify's answer into the command's output.
func result(n int, err error) (verifyOutput, error) {
	o := verifyOutput{N: n, Valid: err == nil}
	if err == nil {
		return o, nil
	}
	var ce *nqueens.ConflictError
	if !errors.As(err, &ce) {
		return o, err
	}
	o.Conflict = &conflictJSON{Kind: ce.Kind.String(), Row2: ce.Row2 + 1, Col2: ce.Col2 + 1, Text: ce.Error()}
	if ce.Row1 >= 0 {
		o.Conflict.Row1, o.Conflict.Col1 = ce.Row1+1, ce.Col1+1
	}
	if ce.Kind == nqueens.WrongLength {
		o.Conflict.Row2, o.Conflict.Col2 = ce.Row2, 0
	}
	return o, nil
}

// verifyFile checks a named file; a binary file is streamed twice at most (the second
// pass only to name the earlier queen of a conflict) instead of being loaded.
func verifyFile(e *env, name, format string) ([]verifyOutput, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	if format == "auto" {
		head, _ := br.Peek(4096)
		format = "text"
		if nqueens.LooksBinary(head) {
			format = "binary"
		}
	}
	st, err := f.Stat()
	if format != "binary" || err != nil || !st.Mode().IsRegular() {
		return verifyReader(e, br, format)
	}
	if st.Size()%4 != 0 {
		return nil, &nqueens.ParseError{Msg: fmt.Sprintf("%s: binary placement is truncated: %d bytes is not a multiple of 4", name, st.Size())}
	}
	n := int(st.Size() / 4)
	if n > nqueens.MaxN {
		return nil, &nqueens.ParseError{Msg: fmt.Sprintf("%s: %d rows is more than the largest board (%d)", name, n, nqueens.MaxN)}
	}
	var readErr error
	pass := func(yield func(int) bool) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			readErr = err
			return
		}
		cancellable(e, nqueens.BinaryColumns(f, &readErr))(yield)
	}
	verr := nqueens.VerifyColumns(n, pass)
	if err := e.ctx.Err(); err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, readErr
	}
	o, err := result(n, verr)
	return []verifyOutput{o}, err
}

// verifyReader checks every placement of a stream, read into memory.
func verifyReader(e *env, r *bufio.Reader, format string) ([]verifyOutput, error) {
	if format == "auto" {
		head, _ := r.Peek(4096)
		format = "text"
		if nqueens.LooksBinary(head) {
			format = "binary"
		}
	}
	var ps []nqueens.Placement
	if format == "binary" {
		p, err := nqueens.ReadBinary(r)
		if err != nil {
			return nil, err
		}
		if len(p) == 0 {
			return nil, &nqueens.ParseError{Msg: "empty input: no placement to verify"}
		}
		ps = []nqueens.Placement{p}
	} else {
		var err error
		ps, err = nqueens.ReadPlacements(r)
		if err != nil {
			return nil, err
		}
	}
	outs := make([]verifyOutput, 0, len(ps))
	for _, p := range ps {
		if e.ctx.Err() != nil {
			return nil, e.ctx.Err()
		}
		o, err := result(len(p), nqueens.Verify(p))
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}
