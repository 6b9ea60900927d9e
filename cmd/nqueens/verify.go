package main

import (
	"bufio"
	"bytes"
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

// verifyCmd is "nqueens verify": it reads placements one at a time and prints a
// verdict for each as soon as it is checked.
type verifyCmd struct {
	e        *env
	format   string
	asJSON   bool
	results  int // verdicts so far
	invalid  int
	pending  *verifyOutput // the first verdict, held until a second says whether to number them
	out      *bufio.Writer // stdout, flushed whenever the input has nothing more at hand
	progress progressFlags
}

func newVerifyCmd(e *env) *cobra.Command {
	c := &verifyCmd{e: e}
	cmd := &cobra.Command{
		Use:   "verify [FILE|-]",
		Short: "Check placements: exit 0 if all are valid, 1 naming the first attacking pair",
		Long: `Check placements read from FILE (or stdin when FILE is - or missing) in O(n).

Text input holds one or more placements: lines of 1-based columns (with the
"class_size=K" that list --unique appends, checked: K must be the size of the
placement's class under the 8 symmetries), board drawings, or JSON objects
{"n":…,"columns":[…]}, one per line with nothing after it. Placements are
checked one at a time while they are read, each held as 4 bytes per queen
and checked in 5 bits per queen: 5 bytes per queen at most, about 250 MB
for 5·10^7 queens. After the first pair that attacks whatever the board
size (a column or a diagonal seen twice) nothing more is held: the rest of
the line is only counted. Binary input is one placement of little-endian
uint32 columns, 0-based; a binary file is streamed with 5 bits of memory
per queen, so 10^9 queens need about 625 MB (from a pipe it is held, 5
bytes per queen at most). Input larger than the memory allows is refused.
--format auto tells binary from text by its bytes. On a terminal, a
verification that lasts shows its progress on stderr (--progress and
--no-progress force it either way).

Exit status: 0 when every placement is valid, 1 when one is not (the first
attacking pair is named, rows and columns 1-based), 2 for unreadable input. A
last line of columns without a newline whose entries are no valid placement
is taken for a file cut short: exit 2, saying so.`,
		Example: "  nqueens solve 8 | nqueens verify\n  nqueens verify --format binary q.bin",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("want at most one FILE, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			name := "-"
			if len(args) == 1 {
				name = args[0]
			}
			return c.run(name)
		},
	}
	cmd.Flags().StringVarP(&c.format, "format", "f", "auto", "input format: auto, text or binary")
	cmd.Flags().BoolVar(&c.asJSON, "json", false, "print one JSON object per placement")
	c.progress.register(cmd.Flags())
	return cmd
}

func (c *verifyCmd) run(name string) error {
	if c.format != "auto" && c.format != "text" && c.format != "binary" {
		return usagef("unknown format %q (want auto, text or binary)", c.format)
	}
	if err := c.progress.check(); err != nil {
		return err
	}
	c.out = bufio.NewWriterSize(c.e.stdout, 1<<16)
	err := c.verify(name)
	if ferr := c.flushPending(); err == nil {
		err = ferr
	}
	if ferr := c.out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		var pe *nqueens.ParseError
		if errors.As(err, &pe) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return usageError{err}
		}
		return err
	}
	if c.results == 0 {
		return usageError{&nqueens.ParseError{Msg: "no placement found in the input"}}
	}
	if c.invalid > 0 {
		return failure{err: fmt.Errorf("%d of %d placements invalid", c.invalid, c.results), silent: true}
	}
	return nil
}

// verify reads name ("-" for stdin) and reports every placement in it.
func (c *verifyCmd) verify(name string) error {
	in := c.e.stdin
	var file *os.File // a regular file, streamed twice by VerifyBinary if binary
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err == nil && st.IsDir() {
			return usagef("%s is a directory, not a file of placements", name)
		}
		if err == nil && st.Mode().IsRegular() {
			file = f
		}
		in = f
	}
	br := bufio.NewReaderSize(in, 1<<16)
	format := c.format
	if format == "auto" {
		// What the first read brings: a pipe may hold back the rest for a long time.
		br.Peek(1)
		head, _ := br.Peek(min(br.Buffered(), 4096))
		format = "text"
		if looksBinary(head) {
			format = "binary"
		}
	}
	line := newLazyLine(c.e.stderr, c.progress.shown(c.e.stderr), c.e.progressDelay)
	defer line.finish()
	opt := nqueens.VerifyOptions{Progress: line.record}
	if format == "text" {
		for v, err := range nqueens.VerifyPlacements(c.e.ctx, br, opt) {
			if err != nil {
				return err
			}
			if err := c.report(v.N, v.Err); err != nil {
				return err
			}
			if br.Buffered() == 0 { // the next read may wait: show what is known
				if err := c.out.Flush(); err != nil {
					return err
				}
			}
		}
		return c.e.ctx.Err()
	}
	src := io.Reader(br)
	if file != nil {
		src = file // streamed from its start, not held
	}
	n, err := nqueens.VerifyBinary(c.e.ctx, src, opt)
	if err != nil && c.e.ctx.Err() != nil {
		return c.e.ctx.Err()
	}
	var ce *nqueens.ConflictError
	if err != nil && !errors.As(err, &ce) {
		return err
	}
	return c.report(n, err)
}

// report prints the verdict on one placement of n queens (err is Verify's answer).
func (c *verifyCmd) report(n int, err error) error {
	o, err := result(n, err)
	if err != nil {
		return err
	}
	c.results++
	if !o.Valid {
		c.invalid++
	}
	switch {
	case c.asJSON:
		return printJSON(c.out, o)
	case c.results == 1:
		c.pending = &o
		return nil
	case c.pending != nil:
		first := c.pending
		c.pending = nil
		if err := c.print(first, "placement 1: "); err != nil {
			return err
		}
	}
	return c.print(&o, fmt.Sprintf("placement %d: ", c.results))
}

// flushPending prints a verdict held back, unnumbered: it was the only one.
func (c *verifyCmd) flushPending() error {
	if c.pending == nil {
		return nil
	}
	o := c.pending
	c.pending = nil
	return c.print(o, "")
}

func (c *verifyCmd) print(o *verifyOutput, prefix string) error {
	var err error
	if o.Valid {
		_, err = fmt.Fprintf(c.out, "%svalid (n=%d)\n", prefix, o.N)
	} else {
		_, err = fmt.Fprintf(c.out, "%sinvalid (n=%d): %s\n", prefix, o.N, o.Conflict.Text)
	}
	return err
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

// looksBinary reports whether the start of an input is the binary form rather than text:
// text never holds a NUL or other control byte besides white space.
func looksBinary(head []byte) bool {
	return bytes.ContainsFunc(head, func(r rune) bool {
		return r < 0x20 && r != '\n' && r != '\r' && r != '\t'
	})
}
