//===- WgmmaStaging.h - wgmma operands transposed through SMEM --*- C++ -*-===//
//
// Where a tileas.wgmma takes more than the instruction does. wgmma reads
// tf32 and 8-bit float operands K-major only, and TMA cannot transpose. A
// tileas.wgmma may still take such an operand in SMEM given MN-major
// (cuTile's mma takes B as K x N): the sm_90a translation has the consumer
// copy it K-major into a staging ring first, the plan counts the ring and
// the op's work counts the copy (docs/cuda.md, "Operands given MN-major").
// And a tile of 8, 16 or 32 rows is issued as 64.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_WGMMASTAGING_H
#define TILEPIPE_IR_WGMMASTAGING_H

#include "ir/TileASDialect.h"

namespace mlir::tileas {

/// Whether M is a tile narrower than wgmma's 64 rows that the translation
/// still takes (8, 16 or 32 rows: a grouped-query decode's heads, cuTile's
/// f32 sample): it issues the 64-row instruction over the tile and the SMEM
/// after it (A in SMEM) or the registers the other warps hold (A in
/// registers), and keeps the accumulator's first M rows; row m of D depends
/// on row m of A only (docs/cuda.md, "Tiles of fewer than 64 rows").
bool isNarrowM(int64_t m);

/// The rule M follows (the ISA's, and the narrow tiles above), as the
/// verifier states it (layout/wgmma_shapes.h).
llvm::StringRef wgmmaMRule();

/// The rows a wgmma computes: its M, or 64 for a narrow tile.
int64_t issuedRows(WgmmaOp mma);

/// Whether `mma` is a narrow tile issued as 64 rows.
bool isNarrowTile(WgmmaOp mma);

/// Whether an SMEM operand of `elem` given MN-major is staged K-major
/// (tf32, e4m3, e5m2, s8/u8) rather than read transposed by the wgmma (f16,
/// bf16).
bool stagedWhenMnMajor(Type elem);

/// Whether operand `index` (0: A, 1: B) of `mma` is staged: in SMEM, given
/// MN-major, of a type stagedWhenMnMajor.
bool isStagedOperand(WgmmaOp mma, unsigned index);

/// The bytes of `mma`'s staged operands, one tile each (0 when none is):
/// each has a ring of two such tiles, and its threads read and write one
/// every wgmma.
int64_t stagedOperandBytes(WgmmaOp mma);

} // namespace mlir::tileas

#endif // TILEPIPE_IR_WGMMASTAGING_H
