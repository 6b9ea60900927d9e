package localsearch

// pipelineMinN is the smallest n for which the prefetching initial search is used; below
// it every array fits in the caches and the plain loop is as fast.
const pipelineMinN = 1 << 16

func (s *solver) initialPipelined() (int, error) { return s.initialPlain() }
