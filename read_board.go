package nqueens

import (
	"fmt"
	"io"
)

// The board drawing of Placements: one row per line, "Q" a queen, "." an empty square.

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
func (t *textReader) flushBoard() error {
	widths, bad := t.widths, t.bad
	t.widths, t.bad = t.widths[:0], t.bad[:0]
	for i, w := range widths {
		if int(w) != len(widths) {
			return &ParseError{Line: t.boardStart + i, Msg: fmt.Sprintf("board row has %d squares, want %d", w, len(widths))}
		}
		if bad[i] {
			return &ParseError{Line: t.boardStart + i, Msg: "board row must hold one Q and otherwise '.'"}
		}
	}
	return nil
}
