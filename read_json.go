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
// alone on its line, streaming the columns into the sink.
func (t *textReader) jsonLine() error {
	j := &jsonObject{t: t, line: t.line, lr: &lineReader{br: t.br}}
	t.begin()
	j.dec = json.NewDecoder(j.lr)
	j.dec.UseNumber()
	defer func() { // the rest of the line, read or not
		j.lr.skipRest()
		t.line = j.line + 1
	}()
	if err := j.fields(); err != nil {
		return j.bad(err)
	}
	return j.finish()
}

// jsonObject is the state of jsonLine: the object of one line, and what it has said.
type jsonObject struct {
	t    *textReader
	line int
	lr   *lineReader
	dec  *json.Decoder
	// "n" and whether it was given; whether "columns" was (the columns are in the sink).
	n               int64
	haveN, haveCols bool
}

// bad is err as jsonLine returns it: a *ParseError or the context's error as it is, any
// other error (the decoder's) as a *ParseError naming the line.
func (j *jsonObject) bad(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) || errors.Is(err, j.t.ctx.Err()) && j.t.ctx.Err() != nil {
		return err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = errors.New("unexpected end of JSON input")
	}
	return &ParseError{Line: j.line, Msg: "bad JSON: " + err.Error()}
}

// delim reads the delimiter want.
func (j *jsonObject) delim(want json.Delim) error {
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, found %v", want, tok)
	}
	return nil
}

// fields reads the object to its closing brace: "n", "columns" and, skipped, any other key.
func (j *jsonObject) fields() error {
	if err := j.delim('{'); err != nil {
		return err
	}
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		switch key, _ := tok.(string); key {
		case "n":
			err = j.size()
		case "columns":
			err = j.columns()
		default:
			var skip json.RawMessage
			err = j.dec.Decode(&skip)
		}
		if err != nil {
			return err
		}
	}
	return j.delim('}')
}

// size reads the value of "n".
func (j *jsonObject) size() error {
	var v json.Number
	if err := j.dec.Decode(&v); err != nil {
		return err
	}
	n, err := v.Int64()
	if err != nil {
		return fmt.Errorf(`"n" is not a whole number`)
	}
	j.n, j.haveN = n, true
	return nil
}

// columns reads the array of "columns" (1-based) into the sink; null counts as absent.
func (j *jsonObject) columns() error {
	j.t.begin()
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	if tok == nil { // "columns": null
		j.haveCols = false
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf(`"columns" is not an array`)
	}
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		num, ok := tok.(json.Number)
		if !ok {
			return fmt.Errorf("a column is not a number")
		}
		c, err := num.Int64()
		if err != nil {
			return fmt.Errorf("column %s is not a whole number", echo([]byte(num), false))
		}
		if c < -1<<31 || c > 1<<31-1 {
			return &ParseError{Line: j.line, Msg: fmt.Sprintf("column %d is out of range", c)}
		}
		if err := j.t.add(int32(c - 1)); err != nil {
			return err
		}
	}
	if err := j.delim(']'); err != nil {
		return err
	}
	j.haveCols = true
	return nil
}

// finish checks what follows the object on its line, and that the object is a placement.
func (j *jsonObject) finish() error {
	rest, err := io.ReadAll(io.MultiReader(j.dec.Buffered(), j.lr))
	if err != nil {
		return err
	}
	rows := j.t.rows()
	switch rest = bytes.TrimSpace(rest); {
	case len(rest) > 0:
		return &ParseError{Line: j.line, Msg: fmt.Sprintf("data after the JSON object: %s", echo(rest, false))}
	case !j.haveCols:
		return &ParseError{Line: j.line, Msg: `JSON object has no "columns"`}
	case rows == 0:
		return &ParseError{Line: j.line, Msg: `"columns" is empty: a board has at least one row`}
	case j.haveN && j.n != int64(rows):
		return &ParseError{Line: j.line, Msg: fmt.Sprintf(`"n" is %d but there are %d columns`, j.n, rows)}
	}
	return nil
}
