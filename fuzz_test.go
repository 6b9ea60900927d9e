package nqueens

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// FuzzVerify compares Verify with the naive O(n²) checker on arbitrary placements.
func FuzzVerify(f *testing.F) {
	f.Add([]byte{1, 3, 0, 2})
	f.Add([]byte{0, 0})
	f.Add([]byte{7, 1, 200})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			data = data[:64]
		}
		p := make(Placement, len(data))
		for i, b := range data {
			p[i] = int32(int8(b)) // negative columns too
		}
		kind, r1, r2 := naiveFirstConflict(p)
		err := Verify(p)
		if err2 := VerifyInPlace(slices.Clone(p)); !sameError(err, err2) {
			t.Fatalf("%v: Verify %v, VerifyInPlace %v", p, err, err2)
		}
		var ce *ConflictError
		switch {
		case kind == 0 && err != nil:
			t.Fatalf("%v: naive valid, Verify %v", p, err)
		case kind != 0 && (!errors.As(err, &ce) || ce.Kind != kind || ce.Row1 != r1 || ce.Row2 != r2):
			t.Fatalf("%v: naive %v %d %d, Verify %v", p, kind, r1, r2, err)
		}
	})
}

// FuzzParsePlacement: the text reader never panics, and what it accepts writes back and
// reads again to the same placements.
func FuzzParsePlacement(f *testing.F) {
	for _, s := range []string{"2 4 1 3", "{\"n\":4,\"columns\":[2,4,1,3]}", ".Q..\n...Q\nQ...\n..Q.", "1,2\n# c\n3", "Q", "{}", "-5 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := readPlacements(strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		for _, p := range ps {
			if err := WritePlacement(context.Background(), &buf, JSON, p); err != nil {
				t.Fatal(err)
			}
		}
		qs, err := readPlacements(&buf)
		if err != nil || len(qs) != len(ps) {
			t.Fatalf("round trip of %q: %v %v", s, qs, err)
		}
		for i := range ps {
			if !slices.Equal(qs[i], ps[i]) {
				t.Fatalf("round trip of %q: %v != %v", s, qs[i], ps[i])
			}
		}
	})
}

// FuzzReadBinary: the binary reader never panics and the streaming reader agrees with it.
func FuzzReadBinary(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 3, 0, 0, 0})
	f.Add([]byte{1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadBinary(bytes.NewReader(data))
		var serr error
		var q Placement
		for c, err := range BinaryColumns(bytes.NewReader(data)) {
			if err != nil {
				serr = err
				break
			}
			q = append(q, int32(min(c, 1<<31-1)))
		}
		if (err == nil) != (serr == nil) {
			t.Fatalf("whole %v, streamed %v", err, serr)
		}
		if err == nil && !slices.Equal(p, q) {
			t.Fatalf("whole %v, streamed %v", p, q)
		}
	})
}

// FuzzParsePartial: the partial reader never panics; accepted input is on the board and
// prints back to pairs that parse to the same partial placement.
func FuzzParsePartial(f *testing.F) {
	for _, s := range []string{"1:2,3:4", "2 0 . 4", "", "1:1 1:1", "9:9", "x"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 100
		p, err := ParsePartial(s, n)
		if err != nil {
			return
		}
		for _, c := range p {
			if c < -1 || int(c) >= len(p) {
				t.Fatalf("%q: column %d off the board", s, c)
			}
		}
		_ = p.Check()
		q, err := ParsePartial(p.String(), len(p))
		if err != nil || len(q) != len(p) {
			t.Fatalf("%q → %q: %v", s, p.String(), err)
		}
		for i := range p {
			if p[i] != q[i] {
				t.Fatalf("%q → %q → %v", s, p.String(), q)
			}
		}
	})
}

// TestSymmetryProperties: for random permutations, the 8 images form a group action.
func TestSymmetryProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(t, "n")
		perm := rapid.Permutation(seq(n)).Draw(t, "perm")
		p := Placement(perm)
		c, size := Canonical(p)
		if size != 1 && size != 2 && size != 4 && size != 8 {
			t.Fatalf("class size %d", size)
		}
		for _, s := range Symmetries() {
			q := s.Apply(p)
			if c2, _ := Canonical(q); !slices.Equal(c2, c) {
				t.Fatalf("%v and its image %v have different canonical forms", p, q)
			}
			if (Verify(p) == nil) != (Verify(q) == nil) {
				t.Fatalf("%v: validity not preserved by %v", p, s)
			}
		}
	})
}

func seq(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}
