package prefetch

// Int32s and Words hint the CPU to load the cache lines of base[idx[i]] for every
// i (PREFETCHT0, in prefetch_amd64.s). A hint never faults and never blocks: the
// instruction retires at once while the line is fetched, unlike a plain load whose result
// must arrive before it retires. The indices must be in range all the same.
//
//go:noescape
func Int32s(base *int32, idx []uint32)

//go:noescape
func Words(base *uint64, idx []uint32)
