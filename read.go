package nqueens

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"
	"strconv"
	"sync"

	"github.com/nqueens/nqueens/internal/sysmem"
)

// Reading placements from a stream holds one placement at a time, 4 bytes per queen (and
// the slack of a growing slice), never its text nor the placements before it: `nqueens
// list 15 | nqueens verify` reads 2 million placements in the memory of one. A placement
// that would not fit is refused with a *ParseError before it is read to the end. To
// verify, VerifyPlacements (verify_stream.go) holds less: see there.

// heldBytesPerQueen bounds the memory of one placement read from a stream: 4 bytes per
// queen, up to 2.25× that while the slice grows, and the verification's 5 bits.
const heldBytesPerQueen = 10

// defaultMaxQueens is the largest placement the readers take when given maxQueens = 0:
// MaxN, or fewer when this process may use less memory than MaxN queens need (the
// smaller of the RAM and the cgroup limit).
var defaultMaxQueens = sync.OnceValue(func() int {
	if limit := sysmem.Limit(); limit > 0 && limit/heldBytesPerQueen < MaxN {
		return int(limit / heldBytesPerQueen)
	}
	return MaxN
})

// checkEvery is how many columns a reader takes between two looks at its context.
const checkEvery = 1 << 20

// maxEcho bounds the bytes of input an error message repeats.
const maxEcho = 40

// Placements reads the placements of a text stream one at a time: one per line for the
// text line and JSON forms, one per block of lines for board drawings (blocks end at a
// blank line or when they have as many lines as columns); lines starting with '#' are
// comments, and a text line may end with the mark "class_size=K" of WriteSolutions
// (or the "class=K" of earlier versions). A
// placement of more than maxQueens queens (0: as many as this process's memory holds at
// 10 bytes per queen) is an error, as is
// anything that is not a placement, such as data after a JSON object on its line.
// Errors are *ParseError, naming the line, or the reader's or ctx's error; the sequence
// ends after an error. ctx is looked at between placements and every 2^20 columns.
// The Placement yielded is reused by the next iteration: clone it to keep it.
func Placements(ctx context.Context, r io.Reader, maxQueens int) iter.Seq2[Placement, error] {
	if maxQueens <= 0 {
		maxQueens = defaultMaxQueens()
	}
	return func(yield func(Placement, error) bool) {
		held := &heldRows{max: maxQueens}
		t := &textReader{ctx: ctx, br: bufio.NewReaderSize(r, 1<<16), line: 1, sink: held}
		for {
			err := t.next()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(held.p, nil) {
				return
			}
		}
	}
}

// readPlacements reads every placement of a text stream (the forms of Placements) into
// memory. It is an error when there is none.
func readPlacements(r io.Reader) ([]Placement, error) {
	var out []Placement
	for p, err := range Placements(context.Background(), r, MaxN) {
		if err != nil {
			return nil, err
		}
		out = append(out, append(Placement(nil), p...))
	}
	if len(out) == 0 {
		return nil, &ParseError{Msg: "no placement found in the input"}
	}
	return out, nil
}

// textReader is the state of Placements and VerifyPlacements: it parses the text forms
// and hands the rows of each placement to its sink, which holds them (heldRows) or checks
// them as they come (VerifyPlacements' lineCheck).
type textReader struct {
	ctx  context.Context
	br   *bufio.Reader
	line int // the line of the next byte
	sink rowSink
	// The board drawing being read: its first line, and per row the squares, the column
	// of the Q and whether the row is well formed.
	boardStart int
	widths     []int32
	bad        []bool
	// The line of columns just read: its first line, the class size its mark
	// "class_size=K" gives (0 without one), and whether the input ended inside it
	// (no newline after it, as in a file cut short).
	startLine    int
	mark         int
	unterminated bool
}

// rowSink takes the rows of the placement being read, one at a time.
type rowSink interface {
	begin()                      // a new placement starts
	add(c int32, line int) error // the 0-based column of its next row, read on line
	rows() int                   // the rows added since begin
}

// heldRows is Placements' sink: the placement held in memory, at most max queens.
type heldRows struct {
	p   Placement
	max int
}

func (h *heldRows) begin()    { h.p = h.p[:0] }
func (h *heldRows) rows() int { return len(h.p) }

func (h *heldRows) add(c int32, line int) error {
	if len(h.p) >= h.max {
		return tooManyHeld(line, h.max)
	}
	h.p = append(h.p, c)
	return nil
}

// next reads the next placement into the sink; io.EOF at the end of the input.
func (t *textReader) next() error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	for {
		c, err := t.br.ReadByte()
		if err == io.EOF {
			if len(t.widths) > 0 {
				return t.flushBoard()
			}
			return io.EOF
		}
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\r', '\f', '\v':
			continue
		case '\n', '#': // a blank line or a comment ends a board drawing
			if c == '#' {
				if err := t.skipLine(); err != nil {
					return err
				}
			} else {
				t.line++
			}
			if len(t.widths) > 0 {
				return t.flushBoard()
			}
			continue
		}
		if len(t.widths) > 0 && c != 'Q' && c != '.' {
			t.br.UnreadByte()
			return t.flushBoard()
		}
		switch c {
		case 'Q', '.':
			t.br.UnreadByte()
			done, err := t.boardRow()
			if err != nil {
				return err
			}
			if done {
				return t.flushBoard()
			}
		case '{':
			t.br.UnreadByte()
			return t.jsonLine()
		default:
			t.br.UnreadByte()
			return t.columnLine()
		}
	}
}

// skipLine reads to the end of the line.
func (t *textReader) skipLine() error {
	for {
		_, err := t.br.ReadSlice('\n')
		switch err {
		case nil:
			t.line++
			return nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			return nil
		}
		return err
	}
}

// begin starts a new placement.
func (t *textReader) begin() {
	t.startLine, t.mark, t.unterminated = t.line, 0, false
	t.sink.begin()
}

// rows is the number of rows of the placement being read.
func (t *textReader) rows() int { return t.sink.rows() }

// add hands a 0-based column of the placement being read to the sink.
func (t *textReader) add(c int32) error {
	if err := t.sink.add(c, t.line); err != nil {
		return err
	}
	if t.sink.rows()%checkEvery == 0 {
		return t.ctx.Err()
	}
	return nil
}

// echo quotes at most maxEcho bytes of input for an error message.
func echo(b []byte, cut bool) string {
	if cut || len(b) > maxEcho {
		return strconv.Quote(string(b[:min(len(b), maxEcho)])) + "…"
	}
	return strconv.Quote(string(b))
}

// tooManyHeld is the error of a placement longer than a reader holds (maxQueens).
func tooManyHeld(line, maxQueens int) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf("a placement of more than %d queens: more than this reader holds in memory (a binary file is streamed instead)", maxQueens)}
}
