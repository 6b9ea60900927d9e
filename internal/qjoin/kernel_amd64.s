//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 table build and pair join (the count kernels are generated, in
// count_amd64.s).

// Byte shuffle of the build: in each 16-byte lane (two words), byte p of
// the first word to byte 2p, byte p of the second to byte 2p+1.
DATA bytePairs<>+0(SB)/8, $0x0b030a0209010800
DATA bytePairs<>+8(SB)/8, $0x0f070e060d050c04
DATA bytePairs<>+16(SB)/8, $0x0b030a0209010800
DATA bytePairs<>+24(SB)/8, $0x0f070e060d050c04
GLOBL bytePairs<>(SB), RODATA|NOPTR, $32

// Line t of byte register Y: its mask of 32 halves to V[8p+t], then the next
// bit of each byte to the top.
#define LINE(Y, off) \
	VPMOVMSKB Y, AX; \
	MOVL      AX, off(DI); \
	VPADDB    Y, Y, Y

#define BYTE_LINES(Y, p) \
	LINE(Y, (8*p+7)*32); \
	LINE(Y, (8*p+6)*32); \
	LINE(Y, (8*p+5)*32); \
	LINE(Y, (8*p+4)*32); \
	LINE(Y, (8*p+3)*32); \
	LINE(Y, (8*p+2)*32); \
	LINE(Y, (8*p+1)*32); \
	LINE(Y, (8*p)*32)

// func buildAVX2(e *uint64, nb int, tab *uint64, k int, v *lineSets, es int)
//
// For each of the nb blocks of 256 words of e (padded with all-ones words),
// with entries es bytes apart (32, or 64 for the two halves of a block of
// 512, which the caller builds one half at a time):
//  1. per group of 32 words, a shuffle network gathers byte p (p = 0..4, 7)
//     of the 32 words into one register, inverted; VPMOVMSKB then reads one
//     line (bit) at a time: v[ℓ] dword g = the halves of group g that do not
//     use line ℓ, and v[40] dword g = the valid (not padding) halves. The
//     halves come out in the same permuted order for every line, which is
//     all the counting needs;
//  2. the k chunk tables: T_j[0] = valid, T_j[s + 2^b] = T_j[s] & v[5j+b],
//     each table 32 entries of es bytes.
TEXT ·buildAVX2(SB), NOSPLIT, $0-48
	MOVQ         e+0(FP), SI
	MOVQ         nb+8(FP), CX
	MOVQ         tab+16(FP), BX
	MOVQ         k+24(FP), R8
	MOVQ         v+32(FP), R9
	MOVQ         es+40(FP), R14
	VMOVDQU      bytePairs<>(SB), Y15
	VPCMPEQB     Y14, Y14, Y14
	TESTQ        CX, CX
	JZ           buildDone

buildBlock:
	MOVQ R9, DI   // v dword of group g
	MOVQ $8, R10

buildGroup:
	VMOVDQU    0(SI), Y0
	VMOVDQU    32(SI), Y1
	VMOVDQU    64(SI), Y2
	VMOVDQU    96(SI), Y3
	VMOVDQU    128(SI), Y4
	VMOVDQU    160(SI), Y5
	VMOVDQU    192(SI), Y6
	VMOVDQU    224(SI), Y7
	VPSHUFB    Y15, Y0, Y0
	VPSHUFB    Y15, Y1, Y1
	VPSHUFB    Y15, Y2, Y2
	VPSHUFB    Y15, Y3, Y3
	VPSHUFB    Y15, Y4, Y4
	VPSHUFB    Y15, Y5, Y5
	VPSHUFB    Y15, Y6, Y6
	VPSHUFB    Y15, Y7, Y7
	// 16-bit units: byte positions 0..3 (low) and 4..7 (high) of 4 words.
	VPUNPCKLWD Y1, Y0, Y8
	VPUNPCKHWD Y1, Y0, Y0
	VPUNPCKLWD Y3, Y2, Y9
	VPUNPCKHWD Y3, Y2, Y2
	VPUNPCKLWD Y5, Y4, Y10
	VPUNPCKHWD Y5, Y4, Y4
	VPUNPCKLWD Y7, Y6, Y11
	VPUNPCKHWD Y7, Y6, Y6
	// 32-bit units: two byte positions of 8 words each.
	VPUNPCKLDQ Y9, Y8, Y1   // 0, 1 of words 0..15
	VPUNPCKHDQ Y9, Y8, Y3   // 2, 3
	VPUNPCKLDQ Y11, Y10, Y5 // 0, 1 of words 16..31
	VPUNPCKHDQ Y11, Y10, Y7 // 2, 3
	VPUNPCKLDQ Y2, Y0, Y8   // 4, 5 of words 0..15
	VPUNPCKHDQ Y2, Y0, Y9   // 6, 7
	VPUNPCKLDQ Y6, Y4, Y10  // 4, 5 of words 16..31
	VPUNPCKHDQ Y6, Y4, Y11  // 6, 7
	// 64-bit units: one byte position of 32 words per register.
	VPUNPCKLQDQ Y5, Y1, Y0
	VPUNPCKHQDQ Y5, Y1, Y1
	VPUNPCKLQDQ Y7, Y3, Y2
	VPUNPCKHQDQ Y7, Y3, Y3
	VPUNPCKLQDQ Y10, Y8, Y4
	VPUNPCKHQDQ Y11, Y9, Y7
	VPXOR       Y14, Y0, Y0
	VPXOR       Y14, Y1, Y1
	VPXOR       Y14, Y2, Y2
	VPXOR       Y14, Y3, Y3
	VPXOR       Y14, Y4, Y4
	VPXOR       Y14, Y7, Y7
	VPMOVMSKB   Y7, AX // bit 63 is never set in an East word
	MOVL        AX, (40*32)(DI)
	BYTE_LINES(Y0, 0)
	BYTE_LINES(Y1, 1)
	BYTE_LINES(Y2, 2)
	BYTE_LINES(Y3, 3)
	BYTE_LINES(Y4, 4)
	ADDQ        $256, SI
	ADDQ        $4, DI
	DECQ        R10
	JNZ         buildGroup

	// Chunk tables.
	MOVQ R9, DI // v[5j]
	MOVQ R8, R10

buildChunk:
	VMOVDQU (40*32)(R9), Y0
	VMOVDQU Y0, (BX)
	MOVQ    $1, R11 // 2^b
	MOVQ    $5, R12

buildLine:
	VMOVDQU (DI), Y1
	MOVQ    BX, DX
	MOVQ    R11, AX
	IMULQ   R14, AX
	LEAQ    (BX)(AX*1), R13
	MOVQ    R11, AX

buildEntry:
	VPAND   (DX), Y1, Y2
	VMOVDQU Y2, (R13)
	ADDQ    R14, DX
	ADDQ    R14, R13
	DECQ    AX
	JNZ     buildEntry
	SHLQ    $1, R11
	ADDQ    $32, DI
	DECQ    R12
	JNZ     buildLine
	MOVQ    R14, AX
	SHLQ    $5, AX
	ADDQ    AX, BX
	DECQ    R10
	JNZ     buildChunk
	DECQ    CX
	JNZ     buildBlock

buildDone:
	VZEROUPPER
	RET

// permPack[m] is the VPERMD index vector that packs the qwords i with bit i
// of m set to the front, in order.
DATA permPack<>+0(SB)/8, $0x0000000000000000
DATA permPack<>+8(SB)/8, $0x0000000000000000
DATA permPack<>+16(SB)/8, $0x0000000000000000
DATA permPack<>+24(SB)/8, $0x0000000000000000
DATA permPack<>+32(SB)/8, $0x0000000100000000
DATA permPack<>+40(SB)/8, $0x0000000000000000
DATA permPack<>+48(SB)/8, $0x0000000000000000
DATA permPack<>+56(SB)/8, $0x0000000000000000
DATA permPack<>+64(SB)/8, $0x0000000300000002
DATA permPack<>+72(SB)/8, $0x0000000000000000
DATA permPack<>+80(SB)/8, $0x0000000000000000
DATA permPack<>+88(SB)/8, $0x0000000000000000
DATA permPack<>+96(SB)/8, $0x0000000100000000
DATA permPack<>+104(SB)/8, $0x0000000300000002
DATA permPack<>+112(SB)/8, $0x0000000000000000
DATA permPack<>+120(SB)/8, $0x0000000000000000
DATA permPack<>+128(SB)/8, $0x0000000500000004
DATA permPack<>+136(SB)/8, $0x0000000000000000
DATA permPack<>+144(SB)/8, $0x0000000000000000
DATA permPack<>+152(SB)/8, $0x0000000000000000
DATA permPack<>+160(SB)/8, $0x0000000100000000
DATA permPack<>+168(SB)/8, $0x0000000500000004
DATA permPack<>+176(SB)/8, $0x0000000000000000
DATA permPack<>+184(SB)/8, $0x0000000000000000
DATA permPack<>+192(SB)/8, $0x0000000300000002
DATA permPack<>+200(SB)/8, $0x0000000500000004
DATA permPack<>+208(SB)/8, $0x0000000000000000
DATA permPack<>+216(SB)/8, $0x0000000000000000
DATA permPack<>+224(SB)/8, $0x0000000100000000
DATA permPack<>+232(SB)/8, $0x0000000300000002
DATA permPack<>+240(SB)/8, $0x0000000500000004
DATA permPack<>+248(SB)/8, $0x0000000000000000
DATA permPack<>+256(SB)/8, $0x0000000700000006
DATA permPack<>+264(SB)/8, $0x0000000000000000
DATA permPack<>+272(SB)/8, $0x0000000000000000
DATA permPack<>+280(SB)/8, $0x0000000000000000
DATA permPack<>+288(SB)/8, $0x0000000100000000
DATA permPack<>+296(SB)/8, $0x0000000700000006
DATA permPack<>+304(SB)/8, $0x0000000000000000
DATA permPack<>+312(SB)/8, $0x0000000000000000
DATA permPack<>+320(SB)/8, $0x0000000300000002
DATA permPack<>+328(SB)/8, $0x0000000700000006
DATA permPack<>+336(SB)/8, $0x0000000000000000
DATA permPack<>+344(SB)/8, $0x0000000000000000
DATA permPack<>+352(SB)/8, $0x0000000100000000
DATA permPack<>+360(SB)/8, $0x0000000300000002
DATA permPack<>+368(SB)/8, $0x0000000700000006
DATA permPack<>+376(SB)/8, $0x0000000000000000
DATA permPack<>+384(SB)/8, $0x0000000500000004
DATA permPack<>+392(SB)/8, $0x0000000700000006
DATA permPack<>+400(SB)/8, $0x0000000000000000
DATA permPack<>+408(SB)/8, $0x0000000000000000
DATA permPack<>+416(SB)/8, $0x0000000100000000
DATA permPack<>+424(SB)/8, $0x0000000500000004
DATA permPack<>+432(SB)/8, $0x0000000700000006
DATA permPack<>+440(SB)/8, $0x0000000000000000
DATA permPack<>+448(SB)/8, $0x0000000300000002
DATA permPack<>+456(SB)/8, $0x0000000500000004
DATA permPack<>+464(SB)/8, $0x0000000700000006
DATA permPack<>+472(SB)/8, $0x0000000000000000
DATA permPack<>+480(SB)/8, $0x0000000100000000
DATA permPack<>+488(SB)/8, $0x0000000300000002
DATA permPack<>+496(SB)/8, $0x0000000500000004
DATA permPack<>+504(SB)/8, $0x0000000700000006
GLOBL permPack<>(SB), RODATA|NOPTR, $512

// func pairsAVX2(dst *uint64, xs, ys []uint64, mask uint64) int
//
// For every x of xs and y of ys that share no line (x&y&mask == 0),
// writes x|y to dst, packed, and returns how many. It
// takes ys 4 words at a time (VPERMD packs the compatible ones by a table
// of the 16 masks) and masks off the words past the end of ys, which it
// reads: up to 3 more words must be readable there. It stores 32 bytes at
// a time: dst needs room for 3 more words.
TEXT ·pairsAVX2(SB), NOSPLIT, $0-72
	MOVQ  dst+0(FP), DI
	MOVQ  DI, R9
	MOVQ  xs_base+8(FP), R10
	MOVQ  xs_len+16(FP), R11
	MOVQ  ys_base+32(FP), R12
	MOVQ  ys_len+40(FP), R13
	TESTQ R11, R11
	JZ    pairsDone
	TESTQ R13, R13
	JZ    pairsDone
	LEAQ  permPack<>(SB), R8
	VPXOR Y14, Y14, Y14
	VPBROADCASTQ mask+56(FP), Y13
	LEAQ  3(R13), R14
	SHRQ  $2, R14 // quads of ys
	MOVQ  R13, CX
	ANDQ  $3, CX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	MOVQ  $15, BX
	TESTQ CX, CX
	CMOVQNE AX, BX // the lanes of the last quad

pairsX:
	VPBROADCASTQ (R10), Y15
	MOVQ         R12, SI
	MOVQ         R14, CX

pairsY:
	VMOVDQU   (SI), Y0
	VPAND     Y15, Y0, Y1
	VPAND     Y13, Y1, Y1
	VPCMPEQQ  Y14, Y1, Y1
	VMOVMSKPD Y1, AX
	MOVQ      $15, DX
	CMPQ      CX, $1
	CMOVQEQ   BX, DX
	ANDQ      DX, AX
	VPOR      Y15, Y0, Y0
	MOVQ      AX, DX
	SHLQ      $5, DX
	VMOVDQU   (R8)(DX*1), Y2
	VPERMD    Y0, Y2, Y0
	VMOVDQU   Y0, (DI)
	POPCNTL   AX, AX
	LEAQ      (DI)(AX*8), DI
	ADDQ      $32, SI
	DECQ      CX
	JNZ       pairsY
	ADDQ      $8, R10
	DECQ      R11
	JNZ       pairsX

pairsDone:
	SUBQ       R9, DI
	SHRQ       $3, DI
	MOVQ       DI, ret+64(FP)
	VZEROUPPER
	RET

// func prefix512(blk *uint64, vals *uint16, d int, pre *uint64)
//
// The prefix table of the AVX-512 block at blk (64-byte entries): entry s
// of pre is T_0[v & 31] & T_1[v >> 5] for v = vals[s], s < d (d ≥ 1).
TEXT ·prefix512(SB), NOSPLIT, $0-32
	MOVQ blk+0(FP), SI
	MOVQ vals+8(FP), DX
	MOVQ d+16(FP), CX
	MOVQ pre+24(FP), DI
prefixLoop:
	MOVWQZX (DX), AX
	MOVQ AX, BX
	ANDQ $31, AX
	SHRQ $5, BX
	SHLQ $6, AX
	SHLQ $6, BX
	VMOVDQU64 (SI)(AX*1), Z0
	VPANDQ 2048(SI)(BX*1), Z0, Z0
	VMOVDQU64 Z0, (DI)
	ADDQ $64, DI
	ADDQ $2, DX
	DECQ CX
	JNZ prefixLoop
	VZEROUPPER
	RET
