package nqueens

import "slices"

// Symmetry is one of the 8 symmetries of the square (the dihedral group D4): a rotation by
// a multiple of 90° clockwise, optionally preceded by a left-right mirror.
type Symmetry uint8

// The 8 symmetries. Mirror means mirroring left-right (column c ↦ n−1−c) first.
const (
	Identity Symmetry = iota
	Rotate90
	Rotate180
	Rotate270
	Mirror
	MirrorRotate90
	MirrorRotate180
	MirrorRotate270
)

// Symmetries returns the 8 symmetries, Identity first. It returns a fresh array: there is
// no package variable a caller could change.
func Symmetries() [8]Symmetry {
	return [8]Symmetry{Identity, Rotate90, Rotate180, Rotate270, Mirror, MirrorRotate90, MirrorRotate180, MirrorRotate270}
}

var symmetryNames = [8]string{"identity", "rotate90", "rotate180", "rotate270", "mirror", "mirror+rotate90", "mirror+rotate180", "mirror+rotate270"}

func (s Symmetry) String() string { return symmetryNames[s&7] }

// Apply returns the image of p under s. The image of a placement is a placement (one queen
// per row) because every symmetry of the square maps rows onto rows or onto columns.
func (s Symmetry) Apply(p Placement) Placement {
	n := int32(len(p))
	q := slices.Clone(p)
	if s >= Mirror {
		for r := range q {
			q[r] = n - 1 - q[r]
		}
	}
	for range s & 3 {
		// Rotating clockwise by 90° moves the queen (r, c) to (c, n−1−r).
		t := make(Placement, n)
		for r, c := range q {
			t[c] = n - 1 - int32(r)
		}
		q = t
	}
	return q
}

// Canonical returns the lexicographically smallest image of p under the 8 symmetries, the
// representative of p's class, and the size of the class (8, 4, 2 or 1).
func Canonical(p Placement) (Placement, int) {
	best := slices.Clone(p)
	images := []Placement{best}
	all := Symmetries()
	for _, s := range all[1:] {
		q := s.Apply(p)
		if slices.Compare(q, best) < 0 {
			best = q
		}
		seen := false
		for _, o := range images {
			if slices.Equal(o, q) {
				seen = true
				break
			}
		}
		if !seen {
			images = append(images, q)
		}
	}
	return best, len(images)
}
