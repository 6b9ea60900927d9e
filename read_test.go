package nqueens

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestVerifyBinaryEqualsVerify: on any placement, the stream verifier gives the same
// answer as Verify on the placement in memory, the named pair included.
func TestVerifyBinaryEqualsVerify(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.IntRange(1, 40).Draw(t, "rows")
		var p Placement
		if rapid.Bool().Draw(t, "solution") && rows >= 4 {
			cols, _ := Construction(context.Background(), rows)
			for c := range cols {
				p = append(p, int32(c))
			}
			for range rapid.IntRange(0, 2).Draw(t, "edits") {
				p[rapid.IntRange(0, rows-1).Draw(t, "row")] = int32(rapid.IntRange(-1, rows+2).Draw(t, "col"))
			}
		} else {
			for range rows {
				p = append(p, int32(rapid.IntRange(0, rows+1).Draw(t, "col")))
			}
		}
		for i := range p {
			if p[i] < 0 {
				p[i] = 1<<31 - 1 // the binary form has no negative columns
			}
		}
		n, err := VerifyBinary(context.Background(), bytes.NewReader(binaryOf(p)), VerifyOptions{})
		want := Verify(p)
		if n != len(p) || !reflect.DeepEqual(err, want) {
			t.Fatalf("%v: VerifyBinary = %d, %v; Verify = %v", p, n, err, want)
		}
	})
}

func binaryOf(p Placement) []byte {
	b := make([]byte, 0, 4*len(p))
	for _, c := range p {
		b = binary.LittleEndian.AppendUint32(b, uint32(c))
	}
	return b
}

// limited is n bytes of an endless stream.
func limited(r io.Reader, n int64) io.Reader { return io.LimitReader(r, n) }

type zeroReader struct{}

func (zeroReader) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// distinct yields the columns next, next+1, ... (no two alike, all beyond the lines
// checked while reading when next ≥ 2^27).
type distinct struct{ next uint32 }

func (d *distinct) Read(b []byte) (int, error) {
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		binary.LittleEndian.PutUint32(b[i:], d.next)
		d.next++
	}
	return n, nil
}

// TestVerifyBinaryBounded: the stream verifier holds at most maxQueens rows, stops
// holding at a certain conflict, and honours ctx on an endless input.
func TestVerifyBinaryBounded(t *testing.T) {
	ctx := context.Background()
	// 4 million zeros: a conflict at row 2, the rest only counted.
	n, err := VerifyBinary(ctx, limited(zeroReader{}, 16<<20), VerifyOptions{MaxQueens: 1000})
	var ce *ConflictError
	if n != 4<<20 || !errors.As(err, &ce) || ce.Kind != SameColumn || ce.Row1 != 0 || ce.Row2 != 1 {
		t.Errorf("zeros: %d rows, %v", n, err)
	}
	var pe *ParseError
	if _, err := VerifyBinary(ctx, limited(&distinct{next: 1 << 27}, 4*1001), VerifyOptions{MaxQueens: 1000}); !errors.As(err, &pe) || !strings.Contains(err.Error(), "more than 1000 queens") {
		t.Errorf("1001 rows held, 1000 allowed: %v", err)
	}
	if _, err := VerifyBinary(ctx, bytes.NewReader([]byte{1, 0, 0}), VerifyOptions{}); !errors.As(err, &pe) || !strings.Contains(err.Error(), "truncated: 3 bytes") {
		t.Errorf("3 bytes: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := VerifyBinary(cctx, zeroReader{}, VerifyOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("endless zeros: %v, want the deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("endless zeros: not stopped by ctx")
	}
}

// TestPlacementsBounded: the text reader refuses a placement past maxQueens before
// reading it to the end, reads one placement at a time, and honours ctx.
func TestPlacementsBounded(t *testing.T) {
	ctx := context.Background()
	in := "1 2 3\n" + strings.Repeat("1 ", 2000) + "\n"
	var got []int
	var err error
	for p, e := range Placements(ctx, strings.NewReader(in), 1000) {
		if e != nil {
			err = e
			break
		}
		got = append(got, len(p))
	}
	var pe *ParseError
	if !reflect.DeepEqual(got, []int{3}) || !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "more than 1000 queens") {
		t.Errorf("got %v, %v", got, err)
	}
	// One placement at a time: the second is not read before the first is taken.
	pr, pw := io.Pipe()
	go io.WriteString(pw, "2 4 1 3\n")
	for p, e := range Placements(ctx, pr, 0) {
		if e != nil || len(p) != 4 {
			t.Fatalf("%v %v", p, e)
		}
		break // the writer never closes: ranging further would block
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, e := range Placements(cctx, strings.NewReader("2 4 1 3\n"), 0) {
		if !errors.Is(e, context.Canceled) {
			t.Errorf("cancelled: %v", e)
		}
	}
}

// TestPlacementsForms: every text form, comments and blank lines, and the errors.
func TestPlacementsForms(t *testing.T) {
	in := "# a comment\n2 4 1 3\n\n3,1,4,2\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n" +
		`{"n":4,"algorithm":"x","seed":1,"columns":[3,1,4,2],"extra":{"a":[1,2]}}` + "\n" +
		". Q . .\n. . . Q\nQ . . .\n"
	ps, err := readPlacements(strings.NewReader(in))
	if err == nil {
		t.Fatalf("a board of 3 rows and 4 squares accepted: %v", ps)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 10 || !strings.Contains(err.Error(), "board row has 4 squares, want 3") {
		t.Errorf("%v", err)
	}
	in = in[:strings.LastIndex(in, "}")+2] + "3 1 4 2 class=2\n" // as list --unique writes
	ps, err = readPlacements(strings.NewReader(in))
	want := []Placement{{1, 3, 0, 2}, {2, 0, 3, 1}, {1, 3, 0, 2}, {2, 0, 3, 1}, {2, 0, 3, 1}}
	if err != nil || !reflect.DeepEqual(ps, want) {
		t.Errorf("got %v, %v", ps, err)
	}
	for in, msg := range map[string]string{
		`{"n":5,"columns":[1,2]}`:        `"n" is 5 but there are 2 columns`,
		`{"n":2}`:                        `no "columns"`,
		`{"columns":[1,2.5]}`:            "not a whole number",
		`{"columns":[1,2]`:               "bad JSON",
		`{"columns":[1]} {"columns":[]}`: "data after the JSON object",
		"1 2 x":                          `"x" is not a column number`,
		". Q\nQ Q":                       "one Q",
		`{"columns":[4294967296]}`:       "out of range",
		`{"n":0,"columns":[]}`:           `"columns" is empty`,
		`{"columns":[]}`:                 `"columns" is empty`,
		"2 4 1 3 class=2 5":              `"5" after the class mark`,
		"2 4 1 3 class=2 class=2":        `"class=2" after the class mark`,
		"class=2 2 4 1 3":                `"class=2" is not a column number`,
		"2 4 1 3 class=x":                `"class=x" is not a column number`,
	} {
		_, err := readPlacements(strings.NewReader(in + "\n"))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
	}
}
