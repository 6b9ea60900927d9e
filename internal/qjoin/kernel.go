package qjoin

import (
	"fmt"
	"os"
	"strings"
)

// Kernel selects the code that counts West words against the chunk tables.
// Every kernel gives the same counts; they differ only in speed.
type Kernel uint8

const (
	// KernelAuto takes the kernel named by the environment variable
	// NQUEENS_KERNEL ("go" or "avx2") if it is set, else the fastest one
	// this CPU runs.
	KernelAuto Kernel = iota
	// KernelGo is the pure-Go kernel: one 64-bit AND chain and popcount per
	// 64 East halves. It runs everywhere.
	KernelGo
	// KernelAVX2 is the assembly kernel for amd64 CPUs with AVX2: one
	// 256-bit AND chain per block and a nibble-table popcount.
	KernelAVX2
)

// KernelEnv is the environment variable that KernelAuto consults.
const KernelEnv = "NQUEENS_KERNEL"

func (k Kernel) String() string {
	switch k {
	case KernelAuto:
		return "auto"
	case KernelGo:
		return "go"
	case KernelAVX2:
		return "avx2"
	}
	return fmt.Sprintf("Kernel(%d)", int(k))
}

// ParseKernel maps a kernel's name to the Kernel.
func ParseKernel(s string) (Kernel, error) {
	for _, k := range []Kernel{KernelAuto, KernelGo, KernelAVX2} {
		if strings.EqualFold(s, k.String()) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown kernel %q (want auto, go or avx2)", s)
}

// Available reports whether this CPU runs the kernel.
func (k Kernel) Available() bool {
	switch k {
	case KernelAuto, KernelGo:
		return true
	case KernelAVX2:
		return haveAVX2
	}
	return false
}

// Resolve returns the kernel that k stands for on this machine: itself, or
// for KernelAuto the one named by NQUEENS_KERNEL, else the fastest
// available. It fails for a kernel this CPU cannot run or a bad name.
func (k Kernel) Resolve() (Kernel, error) {
	if k == KernelAuto {
		if v := os.Getenv(KernelEnv); v != "" {
			e, err := ParseKernel(v)
			if err != nil {
				return 0, fmt.Errorf("%s: %v", KernelEnv, err)
			}
			k = e
		}
	}
	if k == KernelAuto {
		if haveAVX2 {
			return KernelAVX2, nil
		}
		return KernelGo, nil
	}
	if !k.Available() {
		return 0, fmt.Errorf("qjoin: kernel %v does not run on this CPU", k)
	}
	return k, nil
}

// fn returns the counting function of a resolved kernel for chunks
// chunks per block.
func (k Kernel) fn(chunks int) kernelFunc {
	if k == KernelAVX2 && haveAVX2 {
		return avx2Kernel(chunks)
	}
	return goKernel(chunks)
}
