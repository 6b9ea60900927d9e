//go:build !amd64

package prefetch

import (
	"runtime"
	"unsafe"
)

// Int32s and Words touch base[idx[i]] with plain loads where no prefetch
// instruction is wired up: the loads are independent of each other, so the CPU still
// overlaps their misses, but each one must complete before it retires.
func Int32s(base *int32, idx []uint32) {
	var x int32
	for _, i := range idx {
		x ^= *(*int32)(unsafe.Add(unsafe.Pointer(base), uintptr(i)*4))
	}
	runtime.KeepAlive(x)
}

func Words(base *uint64, idx []uint32) {
	var x uint64
	for _, i := range idx {
		x ^= *(*uint64)(unsafe.Add(unsafe.Pointer(base), uintptr(i)*8))
	}
	runtime.KeepAlive(x)
}
