package nqueens

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
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
// streaming: nothing but a small buffer is held in memory, whatever n is.
func Write(w io.Writer, f Format, n int, cols iter.Seq[int]) error {
	bw := bufio.NewWriterSize(w, 1<<16)
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
	return bw.Flush()
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

// WritePlacement writes p in format f.
func WritePlacement(w io.Writer, f Format, p Placement) error {
	return Write(w, f, len(p), p.Columns())
}

// ParsePlacement reads one placement from text in any of the text formats: a line of
// 1-based columns (separated by spaces or commas), a board drawing, or a JSON object
// {"n":…,"columns":[…]}. Columns are not checked against the board: that is Verify's job.
func ParsePlacement(s string) (Placement, error) {
	ps, err := ReadPlacements(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	if len(ps) != 1 {
		return nil, &ParseError{Msg: fmt.Sprintf("want one placement, found %d", len(ps))}
	}
	return ps[0], nil
}

// ReadPlacements reads every placement of a text stream: one per line for the text line
// and JSON forms, one per block of lines for board drawings (blocks end at a blank line
// or when they have as many lines as columns). Lines starting with '#' are comments.
func ReadPlacements(r io.Reader) ([]Placement, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<34)
	var out []Placement
	var board []string
	boardStart := 0
	flush := func() error {
		if board == nil {
			return nil
		}
		p, err := parseBoard(board, boardStart)
		board = nil
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	}
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || s[0] == '#':
			if err := flush(); err != nil {
				return nil, err
			}
		case s[0] == '{':
			if err := flush(); err != nil {
				return nil, err
			}
			p, err := parseJSON(s, line)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		case s[0] == 'Q' || s[0] == '.':
			if board == nil {
				boardStart = line
			}
			board = append(board, s)
			if len(board) == len(strings.Join(strings.Fields(s), "")) {
				if err := flush(); err != nil {
					return nil, err
				}
			}
		default:
			if err := flush(); err != nil {
				return nil, err
			}
			p, err := parseLine(s, line)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &ParseError{Msg: "no placement found in the input"}
	}
	return out, nil
}

func parseColumn(tok string, line int) (int32, error) {
	v, err := strconv.ParseInt(tok, 10, 32)
	if err != nil {
		return 0, &ParseError{Line: line, Msg: fmt.Sprintf("%q is not a column number", tok)}
	}
	return int32(v - 1), nil
}

func parseLine(s string, line int) (Placement, error) {
	toks := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	p := make(Placement, 0, len(toks))
	for _, t := range toks {
		c, err := parseColumn(t, line)
		if err != nil {
			return nil, err
		}
		p = append(p, c)
	}
	return p, nil
}

func parseJSON(s string, line int) (Placement, error) {
	var v struct {
		N       *int    `json:"n"`
		Columns []int64 `json:"columns"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&v); err != nil {
		return nil, &ParseError{Line: line, Msg: "bad JSON: " + err.Error()}
	}
	if v.Columns == nil {
		return nil, &ParseError{Line: line, Msg: `JSON object has no "columns"`}
	}
	if v.N != nil && *v.N != len(v.Columns) {
		return nil, &ParseError{Line: line, Msg: fmt.Sprintf(`"n" is %d but there are %d columns`, *v.N, len(v.Columns))}
	}
	p := make(Placement, len(v.Columns))
	for i, c := range v.Columns {
		if c < -1<<31 || c > 1<<31-1 {
			return nil, &ParseError{Line: line, Msg: fmt.Sprintf("column %d is out of range", c)}
		}
		p[i] = int32(c - 1)
	}
	return p, nil
}

func parseBoard(rows []string, first int) (Placement, error) {
	p := make(Placement, len(rows))
	for i, s := range rows {
		cells := strings.Join(strings.Fields(s), "")
		if len(cells) != len(rows) {
			return nil, &ParseError{Line: first + i, Msg: fmt.Sprintf("board row has %d squares, want %d", len(cells), len(rows))}
		}
		if strings.Trim(cells, "Q.") != "" || strings.Count(cells, "Q") != 1 {
			return nil, &ParseError{Line: first + i, Msg: "board row must hold one Q and otherwise '.'"}
		}
		p[i] = int32(strings.IndexByte(cells, 'Q'))
	}
	return p, nil
}

// ReadBinary reads a whole binary placement (little-endian uint32 per row, 0-based).
func ReadBinary(r io.Reader) (Placement, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(data)%4 != 0 {
		return nil, &ParseError{Msg: fmt.Sprintf("binary placement is truncated: %d bytes is not a multiple of 4", len(data))}
	}
	p := make(Placement, len(data)/4)
	for i := range p {
		v := binary.LittleEndian.Uint32(data[4*i:])
		if v > 1<<31-1 {
			v = 1<<31 - 1 // off every board; Verify reports it
		}
		p[i] = int32(v)
	}
	return p, nil
}

// BinaryColumns streams the 0-based columns of a binary placement from r. The error, if
// any, is stored in *err once the stream ends early.
func BinaryColumns(r io.Reader, err *error) iter.Seq[int] {
	return func(yield func(int) bool) {
		buf := make([]byte, 1<<16)
		have := 0 // bytes in buf not yet decoded
		for {
			k, e := io.ReadAtLeast(r, buf[have:], 4-have)
			have += k
			words := have / 4
			for i := range words {
				if !yield(int(binary.LittleEndian.Uint32(buf[4*i:]))) {
					return
				}
			}
			have = copy(buf, buf[4*words:have])
			if e == io.EOF || e == io.ErrUnexpectedEOF {
				if have != 0 {
					*err = &ParseError{Msg: "binary placement is truncated: its size is not a multiple of 4"}
				}
				return
			}
			if e != nil {
				*err = e
				return
			}
		}
	}
}

// LooksBinary reports whether the start of an input is the binary form rather than text:
// text never holds a NUL or other control byte besides white space.
func LooksBinary(head []byte) bool {
	return bytes.ContainsFunc(head, func(r rune) bool {
		return r < 0x20 && r != '\n' && r != '\r' && r != '\t'
	})
}
