#include "textflag.h"

// func prefetch32(base *int32, idx []uint32)
// PREFETCHT0 of &base[idx[i]] for every i.
TEXT ·prefetch32(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), CX
	TESTQ CX, CX
	JEQ done
loop:
	MOVL (SI), DX
	PREFETCHT0 (AX)(DX*4)
	ADDQ $4, SI
	DECQ CX
	JNE loop
done:
	RET

// func prefetch64(base *uint64, idx []uint32)
// PREFETCHT0 of &base[idx[i]] for every i.
TEXT ·prefetch64(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), CX
	TESTQ CX, CX
	JEQ done
loop:
	MOVL (SI), DX
	PREFETCHT0 (AX)(DX*8)
	ADDQ $4, SI
	DECQ CX
	JNE loop
done:
	RET
