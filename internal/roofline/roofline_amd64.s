//go:build amd64 && !purego

#include "textflag.h"

// The nibble popcount of the AVX2 kernel: the bits of each 4-bit value, and the
// mask of a byte's low nibble.
DATA nibbleCount<>+0(SB)/8, $0x0302020102010100
DATA nibbleCount<>+8(SB)/8, $0x0403030203020201
DATA nibbleCount<>+16(SB)/8, $0x0302020102010100
DATA nibbleCount<>+24(SB)/8, $0x0403030203020201
GLOBL nibbleCount<>(SB), RODATA|NOPTR, $32
DATA nibbleMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbleMask<>(SB), RODATA|NOPTR, $32

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

// func LoadRand256(buf *byte, size, n int) uint64
// The AVX2 kernel's block: 8 loads of 32 bytes at pseudo-random offsets
// within size bytes, ANDed, the nibble popcount (VPSRLW, two VPAND, two
// VPSHUFB, VPADDB) and a VPADDB into byte counts; the counts are summed
// (VPSADBW) once at the end, as the kernel does once per tile.
TEXT ·LoadRand256(SB), NOSPLIT, $0-32
	MOVQ buf+0(FP), SI
	MOVQ size+8(FP), R8
	SUBQ $32, R8 // mask of 32-byte slots
	MOVQ n+16(FP), CX
	MOVQ $0x9E3779B97F4A7C15, R9
	MOVQ $12345, AX
	VMOVDQU nibbleCount<>(SB), Y14
	VMOVDQU nibbleMask<>(SB), Y15
	VPXOR Y10, Y10, Y10
	VPXOR Y12, Y12, Y12
loop:
	IMULQ R9, AX
	MOVQ AX, BX
	SHRQ $20, BX
	ANDQ R8, BX
	VMOVDQU (SI)(BX*1), Y0
	RORXQ $9, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $17, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $25, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $33, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $41, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $49, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	RORXQ $55, AX, BX
	ANDQ R8, BX
	VPAND (SI)(BX*1), Y0, Y0
	VPSRLW $4, Y0, Y1
	VPAND Y15, Y0, Y0
	VPAND Y15, Y1, Y1
	VPSHUFB Y0, Y14, Y0
	VPSHUFB Y1, Y14, Y1
	VPADDB Y0, Y1, Y0
	VPADDB Y0, Y10, Y10
	ADDQ $1, AX
	DECQ CX
	JNZ loop
	VPSADBW Y12, Y10, Y10
	VMOVQ X10, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

// func Nibble256(n int) uint64
// n iterations of 4 independent nibble popcounts of a register (VPSRLW, two
// VPAND, two VPSHUFB, VPADDB each), into byte counts.
TEXT ·Nibble256(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	VMOVDQU nibbleCount<>(SB), Y14
	VMOVDQU nibbleMask<>(SB), Y15
	VPCMPEQB Y0, Y0, Y0
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y12, Y12, Y12
	VPXOR Y13, Y13, Y13
loop:
	VPSRLW $4, Y0, Y1
	VPAND Y15, Y0, Y2
	VPAND Y15, Y1, Y1
	VPSHUFB Y2, Y14, Y2
	VPSHUFB Y1, Y14, Y1
	VPADDB Y2, Y1, Y1
	VPADDB Y1, Y10, Y10
	VPSRLW $4, Y0, Y3
	VPAND Y15, Y0, Y4
	VPAND Y15, Y3, Y3
	VPSHUFB Y4, Y14, Y4
	VPSHUFB Y3, Y14, Y3
	VPADDB Y4, Y3, Y3
	VPADDB Y3, Y11, Y11
	VPSRLW $4, Y0, Y5
	VPAND Y15, Y0, Y6
	VPAND Y15, Y5, Y5
	VPSHUFB Y6, Y14, Y6
	VPSHUFB Y5, Y14, Y5
	VPADDB Y6, Y5, Y5
	VPADDB Y5, Y12, Y12
	VPSRLW $4, Y0, Y7
	VPAND Y15, Y0, Y8
	VPAND Y15, Y7, Y7
	VPSHUFB Y8, Y14, Y8
	VPSHUFB Y7, Y14, Y7
	VPADDB Y8, Y7, Y7
	VPADDB Y7, Y13, Y13
	DECQ CX
	JNZ loop
	VPADDB Y11, Y10, Y10
	VPADDB Y13, Y12, Y12
	VPADDB Y12, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPSADBW Y11, Y10, Y10
	VMOVQ X10, AX
	MOVQ AX, ret+8(FP)
	VZEROUPPER
	RET
