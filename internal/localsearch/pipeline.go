package localsearch

import "github.com/nqueens/nqueens/internal/prefetch"

// pipelineMinN is the smallest n for which the prefetching initial search is used; below
// it every array fits in the caches and the plain loop is as fast.
const pipelineMinN = 1 << 16

// chunk is the number of draws per pipeline stage.
const chunk = 16

// initialPipelined is step 1 of SPEC §3.6 with the cache misses of the random probes
// overlapped in software. The draws do not depend on the data, so they are made two chunks
// ahead, in three stages per loop turn:
//
//  1. draw chunk g: m uniform in [j, n−1] for the current j; prefetch the lines of q[m];
//  2. for chunk g−1: read c = q[m] (now cached), prefetch the bitset words of the two
//     diagonals of (j, c) for the current j (j may still grow a little: usually the same
//     word);
//  3. attempt chunk g−2 exactly as initialPlain does, re-reading q[m] and using the true j.
//
// A draw made when j was smaller may now point at a placed row (m < j): it is then
// discarded and is not an attempt. Since the draw was uniform on [j_then, n−1] and
// independent of everything since, the draws kept are uniform on [j, n−1]: exactly the
// attempts of SPEC §3.6, only their random stream is consumed differently from the plain
// loop. Discards are rare (about chunk·2/(n−j) of the draws, and j moves slowly when n−j
// is small).
func (s *solver) initialPipelined() (int, error) {
	n, q := s.n, s.q
	A, D := s.a.bits, s.d.bits
	w := uint32(len(A))
	base := &s.diag[0] // A then D, one array: one prefetch call covers both
	rng := s.rng
	maxAtt := s.maxAttempts

	var gen, mid, proc [chunk]uint32 // draws of chunks g, g−1, g−2
	var words [2 * chunk]uint32      // bitset words to prefetch (anti, then diagonal)
	draw := func(j int, out *[chunk]uint32) {
		for i := range out {
			out[i] = uint32(j + below(rng.next(), n-j))
		}
		prefetch.Int32s(&q[0], out[:])
	}
	touch := func(j int, in *[chunk]uint32) {
		for i, m := range in {
			c := int(q[m])
			words[i] = uint32((j + c) >> 6)
			words[chunk+i] = w + uint32((j-c+n-1)>>6)
		}
		prefetch.Words(base, words[:])
	}

	j := 0
	var att int64
	nextPoll := int64(pollEvery)
	draw(j, &mid)
	touch(j, &mid)
	draw(j, &gen)
	for att < maxAtt && j < n {
		proc, mid = mid, gen
		draw(j, &gen)
		touch(j, &mid)
		for _, m32 := range proc {
			m := int(m32)
			if m < j {
				continue // drawn when j was smaller: not an attempt
			}
			c := q[m]
			ai := j + int(c)
			di := j - int(c) + n - 1
			ab := uint64(1) << (ai & 63)
			db := uint64(1) << (di & 63)
			if A[ai>>6]&ab|D[di>>6]&db == 0 {
				A[ai>>6] |= ab
				D[di>>6] |= db
				q[m] = q[j]
				q[j] = c
				j++
			}
			att++
			if att == maxAtt || j == n {
				break
			}
		}
		if att >= nextPoll {
			nextPoll += pollEvery
			if s.cancelled() {
				s.rng = rng
				s.st.Attempts += att
				return j, s.ctx.Err()
			}
			if att&(progressEvery-1) < pollEvery {
				s.progress("initial", float64(att)/float64(maxAtt))
			}
		}
	}
	s.rng = rng
	s.st.Attempts += att
	return j, nil
}
