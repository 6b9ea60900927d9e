package nqueens

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The JSON form of Placements: one object {"n":…,"columns":[…]} per line.

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
