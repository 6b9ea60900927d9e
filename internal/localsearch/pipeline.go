package localsearch

import "github.com/nqueens/nqueens/internal/prefetch"

// pipelineMinN is the smallest n for which the prefetching initial search is used; below
// it every array fits in the caches and the plain loop is as fast.
const pipelineMinN = 1 << 16

// chunk is the number of draws per pipeline stage. Smaller chunks keep fewer prefetches
// in flight at once (each chunk issues 8 q lines, then 16 bitset words). On the 2-core
// test VM, with the in-package harness (same seed, variants alternating): at n = 3·10^8,
// chunks of 6, 8 and 12 searched in 30–34 s, of 16 in 37–41 s, of 32 in 42–47 s; at
// n = 10^9, chunks of 8 in 143.0 and 133.6 s against 151.2 and 153.8 s for 16.
const chunk = 8

// initialPipelined is step 1 of docs/algorithms.md §3.6 with the cache misses of the random probes
// overlapped in software. The draws do not depend on the data, so they are made two chunks
// ahead, in three stages per loop turn:
//
//  1. draw chunk g: m uniform in [j, n−1] for the current j; prefetch the lines of q[m];
//  2. for chunk g−1: read c = q[m] (now cached), prefetch the bitset words of the two
//     diagonals of (j, c) for the current j (j may still grow a little: usually the same
//     word);
//  3. attempt chunk g−2 as initialPlain does (without a branch), re-reading q[m] and
//     using the true j.
//
// A draw made when j was smaller may now point at a placed row (m < j): it is then
// discarded and is not an attempt. Since the draw was uniform on [j_then, n−1] and
// independent of everything since, the draws kept are uniform on [j, n−1]: exactly the
// attempts of docs/algorithms.md §3.6, only their random stream is consumed differently from the plain
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

	j := 0
	var att int64
	nextPoll := int64(pollEvery)
	drawChunk(&rng, q, j, n, &mid)
	touchChunk(q, j, n, w, base, &mid, &words)
	drawChunk(&rng, q, j, n, &gen)
	for att < maxAtt && j < n {
		proc, mid = mid, gen
		drawChunk(&rng, q, j, n, &gen)
		touchChunk(q, j, n, w, base, &mid, &words)
		for _, m32 := range proc {
			m := int(m32)
			if m < j {
				continue // drawn when j was smaller: not an attempt
			}
			// The attempt of initialPlain without its branch, which the CPU cannot predict
			// in the middle of the search (a third to a half of the attempts succeed): a
			// mispredicted branch costs more than the stores, made whatever the outcome
			// with a mask that keeps the old values when the attempt fails (5-7% faster
			// at n = 3·10^8).
			c := q[m]
			ai := j + int(c)
			di := j - int(c) + n - 1
			ab := uint64(1) << (ai & 63)
			db := uint64(1) << (di & 63)
			aw, dw := A[ai>>6], D[di>>6]
			var free uint64 // 1 when both diagonals are free
			if aw&ab|dw&db == 0 {
				free = 1
			}
			mask := -free
			A[ai>>6] = aw | ab&mask
			D[di>>6] = dw | db&mask
			qj, keep := q[j], int32(mask)
			q[m] = c ^ (c^qj)&keep  // q[j] on success, else unchanged
			q[j] = qj ^ (qj^c)&keep // c on success (m = j: both are c)
			j += int(free)
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
				s.progress("initial", uint64(att), uint64(maxAtt))
			}
		}
	}
	s.rng = rng
	s.st.Attempts += att
	return j, nil
}

// drawChunk draws chunk rows uniformly in [j, n−1] and prefetches their q entries.
func drawChunk(rng *wyrand, q []int32, j, n int, out *[chunk]uint32) {
	r := *rng
	for i := range out {
		out[i] = uint32(j + below(r.next(), n-j))
	}
	*rng = r
	prefetch.Int32s(&q[0], out[:])
}

// touchChunk prefetches the bitset words of the two diagonals of (j, q[m]) for the draws m
// of in: the anti-diagonal words from base, the diagonal ones w words further.
func touchChunk(q []int32, j, n int, w uint32, base *uint64, in *[chunk]uint32, words *[2 * chunk]uint32) {
	for i, m := range in {
		c := int(q[m])
		words[i] = uint32((j + c) >> 6)
		words[chunk+i] = w + uint32((j-c+n-1)>>6)
	}
	prefetch.Words(base, words[:])
}
