//go:build amd64 && !purego

// The JSON escaper's block scan for Jinja2's tojson (AppendHTMLSafeString)
// on amd64, in SSE2, which every amd64 processor has: sixteen bytes are
// copied to the output and tested at once; each byte that needs an escape
// is replaced by its escape from a table, and the bytes after it are
// copied again after the escape, so that the next block starts sixteen
// bytes on whatever the block held. See escape_amd64.go.

#include "textflag.h"

// func escapeHTMLSafeBlocks(dst []byte, s string, tab *[128]uint64) (w, r int)
TEXT ·escapeHTMLSafeBlocks(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), AX
	MOVQ dst_cap+16(FP), R9
	ADDQ DI, R9          // R9: end of dst's capacity
	ADDQ AX, DI          // DI: where the output goes
	MOVQ DI, R10         // R10: DI at the start
	MOVQ s_base+24(FP), SI
	MOVQ s_len+32(FP), R8
	ADDQ SI, R8          // R8: end of s
	MOVQ SI, R11         // R11: SI at the start
	MOVQ tab+40(FP), BX

	// the bytes each test compares with, in every lane
	MOVL $0x20202020, AX // below space (signed: and every byte from 0x80)
	MOVQ AX, X8
	PSHUFL $0, X8, X8
	MOVL $0x02020202, AX // '<' | 2 and '>' | 2 are '>'
	MOVQ AX, X9
	PSHUFL $0, X9, X9
	MOVL $0x3e3e3e3e, AX
	MOVQ AX, X10
	PSHUFL $0, X10, X10
	MOVL $0x01010101, AX // '&' | 1 and '\'' | 1 are '\''
	MOVQ AX, X11
	PSHUFL $0, X11, X11
	MOVL $0x27272727, AX
	MOVQ AX, X12
	PSHUFL $0, X12, X12
	MOVL $0x22222222, AX // '"'
	MOVQ AX, X13
	PSHUFL $0, X13, X13
	MOVL $0x5c5c5c5c, AX // '\\'
	MOVQ AX, X14
	PSHUFL $0, X14, X14
	MOVL $0x7f7f7f7f, AX // DEL
	MOVQ AX, X7
	PSHUFL $0, X7, X7

loop:
	LEAQ 32(SI), AX
	CMPQ AX, R8
	JA   done            // fewer than 32 bytes left: a block reads 31 past its start
	LEAQ 128(DI), AX
	CMPQ AX, R9
	JA   done            // no room for a block of sixteen escapes
	MOVOU (SI), X0
	MOVOU X0, (DI)
	MOVO  X8, X1
	PCMPGTB X0, X1       // 0x20 > c, signed: below space or from 0x80
	MOVO  X0, X2
	POR   X9, X2
	PCMPEQB X10, X2      // '<' or '>'
	MOVO  X0, X3
	POR   X11, X3
	PCMPEQB X12, X3      // '&' or '\''
	MOVO  X0, X4
	PCMPEQB X13, X4      // '"'
	MOVO  X0, X5
	PCMPEQB X14, X5      // '\\'
	MOVO  X0, X6
	PCMPEQB X7, X6       // DEL
	POR   X2, X1
	POR   X4, X3
	POR   X6, X5
	POR   X3, X1
	POR   X5, X1
	PMOVMSKB X1, AX
	TESTL AX, AX
	JNZ   escape
	ADDQ  $16, SI
	ADDQ  $16, DI
	JMP   loop

	// Each byte k of the block that AX marks, in order: its escape goes
	// where byte k's output goes, DI+k, and the sixteen bytes after it
	// right after the escape; DI moves by the escape's length less one,
	// so that DI+j stays where byte j's output goes. The next block's
	// store writes over what the last of those stores put past the block.
escape:
	BSFL    AX, CX
	MOVBLZX (SI)(CX*1), DX
	CMPL    DX, $0x80
	JAE     nonascii     // not ASCII: the caller decodes it
	MOVQ    (BX)(DX*8), DX
	MOVOU   1(SI)(CX*1), X1
	MOVQ    DX, (DI)(CX*1) // the escape, up to six bytes; its length on top
	SHRQ    $56, DX
	LEAQ    -1(DI)(DX*1), DI
	MOVOU   X1, 1(DI)(CX*1)
	LEAL    -1(AX), DX
	ANDL    DX, AX
	JNZ     escape
	ADDQ    $16, SI
	ADDQ    $16, DI
	JMP     loop

nonascii:
	ADDQ CX, SI
	ADDQ CX, DI

done:
	SUBQ R10, DI
	SUBQ R11, SI
	MOVQ DI, w+48(FP)
	MOVQ SI, r+56(FP)
	RET
