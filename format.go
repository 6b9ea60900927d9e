package nqueens

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
)

// Format names a way of writing placements (docs/algorithms.md §1).
type Format string

// The formats. Text, Board and JSON are for people and small tools; Binary is the compact
// form for very large placements: one little-endian uint32 per row, 0-based.
const (
	Text   Format = "text"   // 1-based columns in row order on one line: "2 4 1 3"
	Board  Format = "board"  // a drawing, row 1 on top: "Q" a queen, "." an empty square
	JSON   Format = "json"   // {"n":4,"columns":[2,4,1,3]} with 1-based columns
	Binary Format = "binary" // little-endian uint32 per row, 0-based, no header
)

// ParseFormat maps a name to a Format.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case Text, Board, JSON, Binary:
		return f, nil
	}
	return "", fmt.Errorf("unknown format %q (want text, board, json or binary)", s)
}

// Write writes the placement of n rows given by the 0-based columns cols in format f,
// streaming: nothing but a small buffer is held in memory, whatever n is. When ctx is
// done it stops within 2^20 rows, flushes what it wrote (a prefix of the placement; the
// JSON object is closed) and returns ctx.Err().
func Write(ctx context.Context, w io.Writer, f Format, n int, cols iter.Seq[int]) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if ctx.Done() != nil { // a context that can end; Background's cannot
		cols = cancellable(ctx, cols)
	}
	var err error
	switch f {
	case Text:
		err = writeText(bw, cols)
	case Board:
		err = writeBoard(bw, n, cols)
	case JSON:
		bw.WriteString(`{"n":`)
		bw.WriteString(strconv.Itoa(n))
		bw.WriteString(`,"columns":[`)
		err = writeList(bw, cols, ',')
		bw.WriteString("]}\n")
	case Binary:
		err = writeBinary(bw, cols)
	default:
		err = fmt.Errorf("unknown format %q", f)
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return ctx.Err()
}

// cancellable ends the stream seq early when ctx is done, looking every 2^20 items (a
// row of a placement each): the consumer tells an interruption from the end by
// ctx.Err().
func cancellable[T any](ctx context.Context, seq iter.Seq[T]) iter.Seq[T] {
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

// writeBinary fills whole chunks of little-endian words before handing them to the
// writer: one call per 16 KiB rather than one per row.
func writeBinary(bw *bufio.Writer, cols iter.Seq[int]) error {
	chunk := make([]byte, 0, 1<<14)
	for c := range cols {
		chunk = binary.LittleEndian.AppendUint32(chunk, uint32(c))
		if len(chunk) == cap(chunk) {
			if _, err := bw.Write(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	_, err := bw.Write(chunk)
	return err
}

func writeText(bw *bufio.Writer, cols iter.Seq[int]) error {
	if err := writeList(bw, cols, ' '); err != nil {
		return err
	}
	return bw.WriteByte('\n')
}

// writeList writes the 1-based columns separated by sep.
func writeList(bw *bufio.Writer, cols iter.Seq[int], sep byte) error {
	var buf [24]byte
	first := true
	for c := range cols {
		if !first {
			bw.WriteByte(sep)
		}
		first = false
		if _, err := bw.Write(strconv.AppendInt(buf[:0], int64(c)+1, 10)); err != nil {
			return err
		}
	}
	return nil
}

func writeBoard(bw *bufio.Writer, n int, cols iter.Seq[int]) error {
	line := make([]byte, 2*n)
	for c := range cols {
		for i := range n {
			line[2*i], line[2*i+1] = '.', ' '
		}
		if c >= 0 && c < n {
			line[2*c] = 'Q'
		}
		line[2*n-1] = '\n'
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// WritePlacement writes p in format f, as Write does.
func WritePlacement(ctx context.Context, w io.Writer, f Format, p Placement) error {
	return Write(ctx, w, f, len(p), p.Columns())
}

// ParsePlacement reads one placement from text in any of the text formats: a line of
// 1-based columns (separated by spaces or commas), a board drawing, or a JSON object
// {"n":…,"columns":[…]}. Columns are not checked against the board: that is Verify's job.
func ParsePlacement(s string) (Placement, error) {
	ps, err := readPlacements(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	if len(ps) != 1 {
		return nil, &ParseError{Msg: fmt.Sprintf("want one placement, found %d", len(ps))}
	}
	return ps[0], nil
}
