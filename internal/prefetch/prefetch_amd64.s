#include "textflag.h"

// func Int32s(base *int32, idx []uint32)
// PREFETCHT0 of &base[idx[i]] for every i.
TEXT ·Int32s(SB), NOSPLIT, $0-32
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

// func Words(base *uint64, idx []uint32)
// PREFETCHT0 of &base[idx[i]] for every i.
TEXT ·Words(SB), NOSPLIT, $0-32
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
