package nqueens

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// The line of 1-based columns, the text form of Placements and of WriteSolutions.

// columnLine reads a line of 1-based columns separated by spaces, tabs or commas. It
// takes the line a buffer at a time and reads a token of plain digits (with an optional
// sign) as it goes; any other token is kept, up to maxEcho bytes, for flushToken.
func (t *textReader) columnLine() error {
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
			return err
		}
		for _, c := range chunk {
			switch {
			case c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n':
				if ferr := flush(); ferr != nil {
					return ferr
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
			} else {
				t.unterminated = true
			}
			if ferr := flush(); ferr != nil {
				return ferr
			}
			return nil
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
		if v, err := strconv.ParseUint(string(k), 10, 8); err == nil {
			*marked, t.mark = true, int(v)
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
