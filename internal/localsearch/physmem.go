package localsearch

// PhysicalMemory returns the machine's physical memory in bytes, or 0 where it is not
// known. Callers use it to refuse a board before allocating anything.
func PhysicalMemory() int64 { return physicalMemory() }
