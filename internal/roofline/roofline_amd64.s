//go:build amd64 && !purego

#include "textflag.h"

// func AddChain(n int) uint64
TEXT ·AddChain(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	XORQ AX, AX
	MOVQ $1, DX
loop:
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	DECQ CX
	JNZ loop
	MOVQ AX, ret+8(FP)
	RET

// func Popcnt512(n int) uint64
TEXT ·Popcnt512(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	VPTERNLOGQ $0xff, Z0, Z0, Z0
	VPXORQ Z10, Z10, Z10
loop:
	VPOPCNTQ Z0, Z1
	VPOPCNTQ Z0, Z2
	VPOPCNTQ Z0, Z3
	VPOPCNTQ Z0, Z4
	VPOPCNTQ Z0, Z5
	VPOPCNTQ Z0, Z6
	VPOPCNTQ Z0, Z7
	VPOPCNTQ Z0, Z8
	DECQ CX
	JNZ loop
	VPADDQ Z1, Z8, Z10
	VMOVQ X10, AX
	MOVQ AX, ret+8(FP)
	VZEROUPPER
	RET

// func LoadRand512(buf *byte, size, n int) uint64
// 8 loads of 64 bytes per iteration at pseudo-random offsets (an LCG
// in a register) within size bytes, ANDed, VPOPCNTQ, VPADDQ.
TEXT ·LoadRand512(SB), NOSPLIT, $0-32
	MOVQ buf+0(FP), SI
	MOVQ size+8(FP), R8
	SUBQ $64, R8 // mask of 64-byte slots
	MOVQ n+16(FP), CX
	MOVQ $0x9E3779B97F4A7C15, R9
	MOVQ $12345, AX
	VPXORQ Z10, Z10, Z10
loop:
	IMULQ R9, AX
	MOVQ AX, BX
	SHRQ $20, BX
	ANDQ R8, BX
	VMOVDQU64 (SI)(BX*1), Z0
	RORXQ $9, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $17, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $25, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $33, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $41, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $49, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	RORXQ $55, AX, BX
	ANDQ R8, BX
	VPANDQ (SI)(BX*1), Z0, Z0
	VPOPCNTQ Z0, Z0
	VPADDQ Z0, Z10, Z10
	ADDQ $1, AX
	DECQ CX
	JNZ loop
	VMOVQ X10, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
