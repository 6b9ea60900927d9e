package nqueens

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
		t := &textReader{ctx: ctx, br: bufio.NewReaderSize(r, 1<<16), line: 1, max: maxQueens}
		for {
			p, err := t.next()
			if err == io.EOF {
				return
			}
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// ReadPlacements reads every placement of a text stream (the forms of Placements) into
// memory. It is an error when there is none.
func ReadPlacements(r io.Reader) ([]Placement, error) {
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

// textReader is the state of Placements.
type textReader struct {
	ctx  context.Context
	br   *bufio.Reader
	line int // the line of the next byte
	max  int
	p    Placement
	chk  *lineCheck // VerifyPlacements: the rows go to the check instead of p
	// The board drawing being read: its first line, and per row the squares, the column
	// of the Q and whether the row is well formed.
	boardStart int
	widths     []int32
	bad        []bool
}

// next returns the next placement, io.EOF at the end of the input.
func (t *textReader) next() (Placement, error) {
	if err := t.ctx.Err(); err != nil {
		return nil, err
	}
	for {
		c, err := t.br.ReadByte()
		if err == io.EOF {
			if len(t.widths) > 0 {
				return t.flushBoard()
			}
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		switch c {
		case ' ', '\t', '\r', '\f', '\v':
			continue
		case '\n', '#': // a blank line or a comment ends a board drawing
			if c == '#' {
				if err := t.skipLine(); err != nil {
					return nil, err
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
				return nil, err
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
	if t.chk != nil {
		t.chk.reset()
	}
	t.p = t.p[:0]
}

// rows is the number of rows of the placement being read.
func (t *textReader) rows() int {
	if t.chk != nil {
		return t.chk.rows
	}
	return len(t.p)
}

// add appends a 0-based column to the placement being read.
func (t *textReader) add(c int32) error {
	if t.chk != nil {
		if err := t.chk.add(c, t.line); err != nil {
			return err
		}
		if t.chk.rows%checkEvery == 0 {
			return t.ctx.Err()
		}
		return nil
	}
	if len(t.p) >= t.max {
		return tooManyHeld(t.line, t.max)
	}
	t.p = append(t.p, c)
	if len(t.p)%checkEvery == 0 {
		return t.ctx.Err()
	}
	return nil
}

// columnLine reads a line of 1-based columns separated by spaces, tabs or commas. It
// takes the line a buffer at a time and reads a token of plain digits (with an optional
// sign) as it goes; any other token is kept, up to maxEcho bytes, for flushToken.
func (t *textReader) columnLine() (Placement, error) {
	t.begin()
	line := t.line
	var buf [maxEcho]byte
	tok := buf[:0]
	long := false   // the token is longer than tok holds
	marked := false // after the mark "class_size=K" that list --unique writes
	// The token being read, while it is plain: its digits' value and count, and its sign.
	plain, neg := true, false
	var val int64
	digits := 0
	flush := func() error {
		if len(tok) == 0 {
			return nil
		}
		if plain && digits > 0 && !marked {
			v := val
			if neg {
				v = -v
			}
			if v > -1<<31 && v <= 1<<31-1 {
				tok, plain, neg, val, digits = tok[:0], true, false, 0, 0
				return t.add(int32(v - 1))
			}
		}
		err := t.flushToken(tok, long, line, &marked)
		tok, long, plain, neg, val, digits = tok[:0], false, true, false, 0, 0
		return err
	}
	for {
		chunk, err := t.br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return nil, err
		}
		for _, c := range chunk {
			switch {
			case c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n':
				if ferr := flush(); ferr != nil {
					return nil, ferr
				}
				continue
			case '0' <= c && c <= '9':
				if digits < 10 {
					val = val*10 + int64(c-'0')
				} else {
					plain = false // too long for a column: flushToken says so
				}
				digits++
			case (c == '-' || c == '+') && len(tok) == 0 && !long:
				neg = c == '-'
			default:
				plain = false
			}
			if len(tok) < maxEcho {
				tok = append(tok, c)
			} else {
				long = true
			}
		}
		if err == nil || err == io.EOF {
			if err == nil {
				t.line++ // the chunk ended with the newline
			}
			if ferr := flush(); ferr != nil {
				return nil, ferr
			}
			return t.p, nil
		}
	}
}

// flushToken reads a token of a line of columns that is not plain digits: the mark
// "class_size=K" that list --unique writes after the columns (or the "class=K" of
// earlier versions), or an error.
func (t *textReader) flushToken(tok []byte, long bool, line int, marked *bool) error {
	k, ok := bytes.CutPrefix(tok, []byte("class_size="))
	if !ok {
		k, ok = bytes.CutPrefix(tok, []byte("class="))
	}
	if ok && !*marked && t.rows() > 0 && !long {
		if _, err := strconv.ParseUint(string(k), 10, 8); err == nil {
			*marked = true
			return nil
		}
	}
	if *marked {
		return &ParseError{Line: line, Msg: fmt.Sprintf("%s after the class mark", echo(tok, long))}
	}
	v, err := strconv.ParseInt(string(tok), 10, 32)
	if err != nil || long {
		return &ParseError{Line: line, Msg: fmt.Sprintf("%s is not a column number", echo(tok, long))}
	}
	return t.add(int32(max(v-1, -1<<31))) // column -2^31 is as far off the board as it gets
}

// echo quotes at most maxEcho bytes of input for an error message.
func echo(b []byte, cut bool) string {
	if cut || len(b) > maxEcho {
		return strconv.Quote(string(b[:min(len(b), maxEcho)])) + "…"
	}
	return strconv.Quote(string(b))
}

// boardRow reads one row of a board drawing and reports whether it completes the board:
// as many rows as squares in this row.
func (t *textReader) boardRow() (bool, error) {
	if len(t.widths) == 0 {
		t.boardStart = t.line
		t.begin()
	}
	var width, queens int32
	col, bad := int32(-1), false
	for {
		c, err := t.br.ReadByte()
		if err == io.EOF || c == '\n' {
			if err == nil {
				t.line++
			}
			break
		}
		if err != nil {
			return false, err
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case 'Q':
			queens++
			col = width
		case '.':
		default:
			bad = true
		}
		if width++; width < 0 {
			return false, &ParseError{Line: t.line, Msg: "board row too long"}
		}
	}
	if err := t.add(col); err != nil {
		return false, err
	}
	t.widths = append(t.widths, width)
	t.bad = append(t.bad, bad || queens != 1)
	return len(t.widths) == int(width), nil
}

// flushBoard checks the board drawing read and returns its placement.
func (t *textReader) flushBoard() (Placement, error) {
	widths, bad := t.widths, t.bad
	t.widths, t.bad = t.widths[:0], t.bad[:0]
	for i, w := range widths {
		if int(w) != len(widths) {
			return nil, &ParseError{Line: t.boardStart + i, Msg: fmt.Sprintf("board row has %d squares, want %d", w, len(widths))}
		}
		if bad[i] {
			return nil, &ParseError{Line: t.boardStart + i, Msg: "board row must hold one Q and otherwise '.'"}
		}
	}
	return t.p, nil
}

// lineReader reads one line of br, its newline included, then reports io.EOF.
type lineReader struct {
	br      *bufio.Reader
	pending []byte // read from br, not yet handed out
	done    bool   // the newline (or the end of br) was read
}

func (l *lineReader) Read(b []byte) (int, error) {
	if len(l.pending) == 0 {
		if l.done {
			return 0, io.EOF
		}
		chunk, err := l.br.ReadSlice('\n')
		switch err {
		case bufio.ErrBufferFull:
		case nil, io.EOF:
			l.done = true
		default:
			return 0, err
		}
		l.pending = chunk
	}
	n := copy(b, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// skipRest reads to the end of the line.
func (l *lineReader) skipRest() error {
	l.pending = nil
	for !l.done {
		if _, err := l.br.ReadSlice('\n'); err != bufio.ErrBufferFull {
			l.done = true
			if err != nil && err != io.EOF {
				return err
			}
		}
	}
	return nil
}

// jsonLine reads a JSON object {"n":…,"columns":[…]} (other keys are ignored) that must be
// alone on its line, streaming the columns.
func (t *textReader) jsonLine() (Placement, error) {
	line := t.line
	t.begin()
	lr := &lineReader{br: t.br}
	dec := json.NewDecoder(lr)
	dec.UseNumber()
	bad := func(err error) (Placement, error) {
		var pe *ParseError
		if errors.As(err, &pe) || errors.Is(err, t.ctx.Err()) && t.ctx.Err() != nil {
			return nil, err
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = errors.New("unexpected end of JSON input")
		}
		return nil, &ParseError{Line: line, Msg: "bad JSON: " + err.Error()}
	}
	defer func() { // the rest of the line, read or not
		lr.skipRest()
		t.line = line + 1
	}()
	delim := func(want json.Delim) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); !ok || d != want {
			return fmt.Errorf("want %q, found %v", want, tok)
		}
		return nil
	}
	if err := delim('{'); err != nil {
		return bad(err)
	}
	n, haveN, haveCols := int64(0), false, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		switch key, _ := tok.(string); key {
		case "n":
			var v json.Number
			if err := dec.Decode(&v); err != nil {
				return bad(err)
			}
			if n, err = v.Int64(); err != nil {
				return bad(fmt.Errorf(`"n" is not a whole number`))
			}
			haveN = true
		case "columns":
			t.begin()
			tok, err := dec.Token()
			if err != nil {
				return bad(err)
			}
			if tok == nil { // "columns": null
				haveCols = false
				continue
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return bad(fmt.Errorf(`"columns" is not an array`))
			}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return bad(err)
				}
				num, ok := tok.(json.Number)
				if !ok {
					return bad(fmt.Errorf("a column is not a number"))
				}
				c, err := num.Int64()
				if err != nil {
					return bad(fmt.Errorf("column %s is not a whole number", echo([]byte(num), false)))
				}
				if c < -1<<31 || c > 1<<31-1 {
					return nil, &ParseError{Line: line, Msg: fmt.Sprintf("column %d is out of range", c)}
				}
				if err := t.add(int32(c - 1)); err != nil {
					return bad(err)
				}
			}
			if err := delim(']'); err != nil {
				return bad(err)
			}
			haveCols = true
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return bad(err)
			}
		}
	}
	if err := delim('}'); err != nil {
		return bad(err)
	}
	rest, err := io.ReadAll(io.MultiReader(dec.Buffered(), lr))
	if err != nil {
		return nil, err
	}
	if rest = bytes.TrimSpace(rest); len(rest) > 0 {
		return nil, &ParseError{Line: line, Msg: fmt.Sprintf("data after the JSON object: %s", echo(rest, false))}
	}
	if !haveCols {
		return nil, &ParseError{Line: line, Msg: `JSON object has no "columns"`}
	}
	if t.rows() == 0 {
		return nil, &ParseError{Line: line, Msg: `"columns" is empty: a board has at least one row`}
	}
	if haveN && n != int64(t.rows()) {
		return nil, &ParseError{Line: line, Msg: fmt.Sprintf(`"n" is %d but there are %d columns`, n, t.rows())}
	}
	return t.p, nil
}

// ReadBinary reads a whole binary placement (little-endian uint32 per row, 0-based) into
// memory, 4 bytes per queen. Columns past 2^31−1 read as 2^31−1, off every board.
func ReadBinary(r io.Reader) (Placement, error) {
	var p Placement
	var err error
	cr := &countingReader{r: r}
	for c := range BinaryColumns(cr, &err) {
		if len(p) == MaxN {
			return nil, tooManyRows()
		}
		p = append(p, clampColumn(c))
	}
	if err := binaryError(err, cr.n); err != nil {
		return nil, err
	}
	return p, nil
}

// clampColumn is a column of the binary form as an int32: past 2^31−1 it is 2^31−1, off
// every board, which Verify reports.
func clampColumn(c int) int32 { return int32(min(c, 1<<31-1)) }

// binaryError is the error of BinaryColumns on an input of size bytes, its truncation
// told with the size.
func binaryError(err error, size int64) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		return &ParseError{Msg: fmt.Sprintf("binary placement is truncated: %d bytes is not a multiple of 4", size)}
	}
	return err
}

// tooManyRows is the error of a binary input longer than the largest board.
func tooManyRows() error {
	return &ParseError{Msg: fmt.Sprintf("a binary placement of more than %d rows, the largest board", MaxN)}
}

// tooManyHeld is the error of a placement longer than a reader holds (maxQueens).
func tooManyHeld(line, maxQueens int) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf("a placement of more than %d queens: more than this reader holds in memory (a binary file is streamed instead)", maxQueens)}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// streamChunk is the rows of the largest block of a binary placement held by
// VerifyBinary: blocks hold 4 bytes per queen without the copies of a growing slice.
const streamChunk = 1 << 20

// preBits bounds the lines VerifyBinary checks while it reads (columns, diagonals and
// anti-diagonals below 2^26, 8 MiB of bits each at most): enough to stop holding an
// input at its first certain conflict, such as the second zero of /dev/zero.
const preBits = 1 << 26

// VerifyBinary checks a binary placement read from r to its end (a pipe, a device: a
// regular file is better streamed twice with VerifyColumns, in 5 bits per queen) and
// returns its n and Verify's answer for it. The board size is the number of rows, known
// only at the end, so the rows are held, 4 bytes per queen, up to maxQueens (0: as many
// as the memory holds at 5 bytes per queen; more is a *ParseError) or up to the first conflict that is certain
// whatever n: after it the rest is only counted. The answer is the same as Verify's on
// the whole placement. ctx is looked at every 2^20 rows. Read errors are returned as
// they are, and a truncated input as a *ParseError; conflicts as a *ConflictError.
func VerifyBinary(ctx context.Context, r io.Reader, maxQueens int) (int, error) {
	if maxQueens <= 0 {
		maxQueens = defaultVerifyQueens() // 4 bytes per queen, 5 bits for VerifyColumns
	}
	var chunks [][]int32
	held := 0  // rows held
	rows := 0  // rows read
	stop := -1 // the row of the first certain conflict, -1 before it
	var pre [4]growBits
	var readErr error
	cr := &countingReader{r: r}
	for c := range BinaryColumns(cr, &readErr) {
		if rows%streamChunk == 0 && rows > 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		if rows == MaxN {
			return 0, tooManyRows()
		}
		if stop < 0 {
			if held == maxQueens {
				return 0, tooManyHeld(0, maxQueens)
			}
			if len(chunks) == 0 || len(chunks[len(chunks)-1]) == cap(chunks[len(chunks)-1]) {
				// Small inputs get small blocks: 1024 rows, doubling up to streamChunk.
				chunks = append(chunks, make([]int32, 0, min(streamChunk, max(1024, held))))
			}
			chunks[len(chunks)-1] = append(chunks[len(chunks)-1], clampColumn(c))
			held++
			// The diagonals r − c ≥ 0 and those below zero, −(r − c) − 1, in two sets.
			if pre[0].testAndSet(c) || pre[1].testAndSet(rows+c) || pre[2].testAndSet(rows-c) || pre[3].testAndSet(c-rows-1) {
				stop = rows
			}
		}
		rows++
	}
	if err := binaryError(readErr, cr.n); err != nil {
		return 0, err
	}
	if rows == 0 {
		return 0, &ParseError{Msg: "empty input: no placement to verify"}
	}
	cols := func(yield func(int) bool) {
		for _, ch := range chunks {
			for _, c := range ch {
				if !yield(int(c)) {
					return
				}
			}
		}
	}
	// With a certain conflict at row stop, Verify on all the rows fails at that row or
	// before: the rows held decide.
	return rows, VerifyColumns(rows, cols)
}

// growBits is a set of the integers in [0, preBits), grown as needed; the others are
// never members.
type growBits []uint64

// testAndSet adds i and reports whether it was there already (false outside the range).
func (g *growBits) testAndSet(i int) bool {
	if i < 0 || i >= preBits {
		return false
	}
	w := i >> 6
	if w >= len(*g) {
		*g = append(*g, make([]uint64, max(w+1, 2*len(*g))-len(*g))...)
		*g = (*g)[:cap(*g)]
		if len(*g) > preBits/64 {
			*g = (*g)[:preBits/64]
		}
	}
	b := uint64(1) << (i & 63)
	old := (*g)[w]
	(*g)[w] = old | b
	return old&b != 0
}
