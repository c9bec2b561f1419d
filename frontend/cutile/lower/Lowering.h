//===- Lowering.h - tileir to tileas, the shared state ----------*- C++ -*-===//
//
// One EntryLowering turns one tileir.entry into a func.func of tileas tile
// IR. Its parts live one concern per file: the kernel and its argument
// interface (Kernel.cpp), views and the TMA loads and stores through them
// (Views.cpp), the loop (Loop.cpp), the MMA and its TMEM accumulator
// (Mma.cpp), element-wise work, shapes and scalars (Elementwise.cpp), row
// reductions (Reductions.cpp) and optimization hints (Hints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_LOWER_LOWERING_H
#define TILEPIPE_FRONTEND_CUTILE_LOWER_LOWERING_H

#include "frontend/cutile/ir/TileIRDialect.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>
#include <string>

namespace tilepipe::cutile {

/// Register tiles of fewer than 128 rows, their rows split over lanes
/// (SplitRows.cpp): the lowering's last step.
mlir::LogicalResult splitRows(mlir::func::FuncOp func);

/// A vector made per row (a column statistic: the row reduction of a
/// transposed read) that a broadcast spreads along columns is written to
/// shared memory and read back whole (ColumnVectors.cpp).
void exchangeRowVectors(mlir::func::FuncOp func);

/// Two loops in a row made one: cuTile's split of a loop at a branch on
/// its index, or a second loop starting at the first's bound, continuing
/// its values (SplitLoops.cpp).
void fuseSplitLoops(mlir::func::FuncOp func);

/// A loop directly under an `if` (split-KV decoding's `if end > start:
/// for ...`) taken out of it, running no trips when the branch is not
/// taken (GuardedLoops.cpp); done on the tile IR before lowering.
void hoistGuardedLoops(tileir::EntryOp entry);

/// `c ? t : e` for a scalar condition `c` and register values `t`, `e` (a
/// tile's select takes `c` splat, or joins a mask one side applies to the
/// other; Branches.cpp).
mlir::Value selectOnScalar(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value c, mlir::Value t, mlir::Value e);

/// A register tile of positions (i32) or of a mask made of them (i1): the
/// integer tiles the lowering takes (Elementwise.cpp).
inline bool isPositionTile(mlir::RankedTensorType t) {
  return t.getElementType().isSignlessInteger(32) ||
         t.getElementType().isInteger(1);
}

/// The result dimensions (of the register form, unit dimensions dropped)
/// that a broadcast from `from` to `to` adds (Elementwise.cpp).
llvm::SmallVector<int64_t> addedDimensions(tileir::TileType from,
                                           tileir::TileType to);

/// Whether `v` is a tileir constant of zeros.
bool isZeroTile(mlir::Value v);

/// cuTile's MMAs, mmaf (float) and mmai (integer): acc + lhs (M x K) rhs
/// (K x N), their operands in that order and one result.
inline bool isMma(mlir::Operation *op) {
  return op && mlir::isa<tileir::MmaFOp, tileir::MmaIOp>(op);
}
/// `v`'s defining MMA, or null.
inline mlir::Operation *definingMma(mlir::Value v) {
  mlir::Operation *op = v.getDefiningOp();
  return isMma(op) ? op : nullptr;
}
inline mlir::Value mmaLhs(mlir::Operation *mma) { return mma->getOperand(0); }
inline mlir::Value mmaRhs(mlir::Operation *mma) { return mma->getOperand(1); }
inline mlir::Value mmaAcc(mlir::Operation *mma) { return mma->getOperand(2); }

/// Whether a load through a view of `type` needs a padding TMA's zero fill
/// does not give.
bool needsPadding(tileir::PartitionViewType type);

/// The value an assume chain starts from: assumptions state facts
/// tilepipe does not need, so they lower to their operand (Kernel.cpp).
mlir::Value stripAssume(mlir::Value v);

/// Why one TMA cannot move `box` of `elem` (rank 1 to 5, at most 256
/// elements along any dimension but the innermost, whose row is a multiple
/// of 16 bytes); empty when it can (Views.cpp).
std::string tmaBoxProblem(llvm::ArrayRef<int64_t> box, mlir::Type elem);

/// The rank of an array only gathers and scatters read: the number of
/// index terms of the offsets into it (Gathers.cpp); an error at an offset
/// that is not a box of it.
mlir::FailureOr<int64_t> gatheredArrayRank(mlir::BlockArgument ptr);

/// The SMEM tile a box lands as: the box without its leading unit
/// dimensions (Views.cpp).
mlir::FailureOr<mlir::tileas::SmemType>
smemTileOf(mlir::Operation *op, mlir::tileas::TmaDescType desc);

/// A kernel parameter as cuTile's calling convention flattens it: an array
/// is (pointer, shape[rank], strides[rank]) of entry arguments, a scalar
/// one argument.
struct KernelParam {
  bool isArray = false;
  unsigned firstArg = 0;
  int64_t rank = 0;
  mlir::Type elementType; // the array's elements, or the scalar's type
  mlir::Type indexType;   // an array's shape and stride type (i32 or i64)
  std::string name;
};

/// Where an entry argument of an array parameter sits in it.
struct ArrayPart {
  unsigned param;
  enum Kind { Pointer, Shape, Stride } kind;
  int64_t dim;
};

/// One argument of the lowered function: its type, its
/// `tileas.cutile.source` and its `tileas.name`.
struct LoweredArg {
  mlir::Type type;
  mlir::DictionaryAttr source;
  std::string name;
};

/// A partition view: the TMA descriptor argument its tiles come through, the
/// tile shape (in tile dimensions) and the tensor dimension each tile
/// dimension walks.
struct Partition {
  unsigned descArg = 0;
  unsigned param;
  /// A tile of one element narrower than a TMA box (16 bytes): stored by a
  /// thread through the array's pointer (`ptrArg`), at the offset its
  /// strides give (`strides`, static or ShapedType::kDynamic).
  bool element = false;
  /// An integer tile (an index read from memory, as an embedding's ids):
  /// read by the threads through the array's pointer (tileas.global_gather
  /// at positions, itself positions: registers carry no other integers).
  bool threads = false;
  unsigned ptrArg = 0;
  llvm::SmallVector<int64_t> strides;
  /// The TMA box: the tile in tensor order.
  llvm::SmallVector<int64_t> box;
  llvm::SmallVector<int64_t> tile;
  llvm::SmallVector<int64_t> dimMap;
  /// Whether the box (tensor order) holds the tile's last two dimensions
  /// swapped (dim_map [1, 0], or [0, 2, 1] with a batch dimension first).
  bool transposed() const {
    size_t r = dimMap.size();
    return r >= 2 && dimMap[r - 2] == int64_t(r - 1) &&
           dimMap[r - 1] == int64_t(r - 2);
  }
};

/// A gather or scatter whose elements are a box of an array (Gathers.cpp):
/// the box (in the array's order) and where it starts in each dimension
/// (a constant plus and minus tileir scalars).
struct BoxAccess {
  unsigned param = 0;
  llvm::SmallVector<int64_t> box;
  /// Per array dimension, the stride the offsets scale its index by:
  /// ShapedType::kDynamic for the array's stride argument, else cuTile's
  /// unit stride (Partition::strides' form).
  llvm::SmallVector<int64_t> strides;
  struct Start {
    int64_t constant = 0;
    llvm::SmallVector<mlir::Value> scalars, subtracted;
    /// The tile dimension the index runs along (ct.arange), or -1.
    int64_t tileDim = -1;
    /// An index that is no scalar plus ct.arange (`2 * offs`): the i32
    /// tileir tile it widens, which the threads read as positions.
    mlir::Value general;
  };
  llvm::SmallVector<Start> start;
  /// The conjuncts of a gather's mask other than the bounds (Triton's
  /// `offs < n`): applied to the loaded tile by a select.
  llvm::SmallVector<mlir::Value> masks;
  /// A gather's padding other than zero: threads read it past the bounds
  /// (EntryLowering::Padded), where TMA wrote zeros.
  mlir::TypedAttr padding;
  /// A scatter of one element narrower than a TMA box: stored by a thread
  /// (Partition::element), its array's pointer numbered with the others.
  std::optional<Partition> element;
  /// Read or written by the threads element by element
  /// (tileas.global_gather / global_scatter) where TMA cannot: an
  /// innermost start not 16-byte aligned, a transposed or narrow box, a
  /// scatter's mask beyond the bounds.
  bool threads = false;
};

class EntryLowering {
public:
  /// `registerMma`: the MMAs become wgmma after the lowering
  /// (--tileir-to-tileas=wgmma), so 256-row tiles are no error.
  /// `fuseLoops`: two loops in a row that run one range are made one.
  EntryLowering(tileir::EntryOp entry, bool registerMma = false,
                bool fuseLoops = true);

  /// The lowered function, inserted before the entry; failure after an
  /// error at the op that could not be lowered.
  mlir::FailureOr<mlir::func::FuncOp> run();

  //===--- Kernel.cpp: parameters, arguments, block ids -------------------===//
  mlir::LogicalResult collectParams();
  mlir::FailureOr<int64_t> unreadArrayRank(unsigned ptr);
  mlir::LogicalResult planArguments();
  /// Numbers the planned arguments: descriptors by (array, box), then shapes
  /// and strides by (array, dimension), then scalars by parameter.
  void numberArguments();
  void createFunction();
  mlir::LogicalResult lowerBody();
  mlir::LogicalResult lowerBlockId(tileir::GetTileBlockIdOp op);
  mlir::LogicalResult lowerNumBlocks(tileir::GetNumTileBlocksOp op);
  /// Plans an argument for an array's shape or stride.
  void needShapeArg(unsigned param, ArrayPart::Kind kind, int64_t dim);
  /// The lowered function's argument for an array's shape or stride.
  unsigned shapeArg(unsigned param, ArrayPart::Kind kind, int64_t dim);

  //===--- Views.cpp: views to TMA descriptors, loads and stores ----------===//
  mlir::LogicalResult planPartition(tileir::MakePartitionViewOp op);
  mlir::LogicalResult planPointerPartition(tileir::MakePartitionViewOp op,
                                           Partition p);
  /// An error at `op` when one TMA cannot move `box` (tmaBoxProblem).
  mlir::LogicalResult checkBox(mlir::Operation *op, llvm::ArrayRef<int64_t> box,
                               mlir::Type elem);
  /// Plans what a thread needs to access `param`'s elements: its base
  /// pointer, its shape and the strides that are dynamic in `strides`.
  void needPointerArgs(unsigned param, llvm::ArrayRef<int64_t> strides);
  /// The tensor's extents past `coords` in the last `rank` dimensions (an
  /// SMEM tile's): what a padded read keeps (smem_load valid(..)).
  llvm::SmallVector<mlir::Value> extentsPast(mlir::Operation *op,
                                             unsigned param,
                                             llvm::ArrayRef<mlir::Value> coords,
                                             int64_t rank);
  mlir::LogicalResult lowerIndexSpaceShape(tileir::GetIndexSpaceShapeOp op);
  mlir::LogicalResult lowerTensorShape(tileir::GetTensorShapeOp op);
  mlir::LogicalResult lowerLoad(tileir::LoadViewTkoOp op);
  mlir::LogicalResult lowerThreadsLoad(tileir::LoadViewTkoOp op,
                                       const Partition &p);
  mlir::LogicalResult lowerThreadsStore(tileir::StoreViewTkoOp op,
                                        const Partition &p);
  mlir::LogicalResult lowerElementLoad(tileir::LoadViewTkoOp op,
                                       const Partition &p);
  /// Element `coords`' offset from the base (index) and whether it lies
  /// inside the array (i1).
  std::pair<mlir::Value, mlir::Value>
  elementOffset(mlir::Operation *op, const Partition &p,
                llvm::ArrayRef<mlir::Value> coords);
  mlir::LogicalResult lowerStore(tileir::StoreViewTkoOp op);
  /// A store of one element through the array's pointer (Partition::element).
  mlir::LogicalResult lowerElementStore(tileir::StoreViewTkoOp op,
                                        const Partition &p);
  /// Stores the one element `tile` holds at element coordinates `coords`
  /// of `p`'s array, when they lie inside it.
  mlir::LogicalResult storeElement(mlir::Operation *op, mlir::Value tile,
                                   const Partition &p,
                                   llvm::ArrayRef<mlir::Value> coords);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  boxCoordinates(mlir::Operation *op, const Partition &p,
                 mlir::ValueRange index);
  /// A permute of a loaded tile: the same SMEM tile, read the other way.
  mlir::LogicalResult lowerPermute(tileir::PermuteOp op);
  /// Whether the tileir tile `v`, lowered to the SMEM tile `lowered`, is
  /// that tile's box transposed (a dim_map [1, 0] load, a permute, or both
  /// cancelling).
  bool readsTransposed(mlir::Value v, mlir::Value lowered) const {
    return transposedSmem.contains(lowered) != permutedTiles.contains(v);
  }

  //===--- Gathers.cpp: gathers and scatters of a box ---------------------===//
  mlir::LogicalResult planBoxAccess(mlir::Operation *op, mlir::Value ptrs,
                                    mlir::Value mask, mlir::Value padding,
                                    tileir::MemoryOrdering ordering);
  void markAddressOps(mlir::Operation *access, mlir::ValueRange operands);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  boxAccessCoordinates(mlir::Operation *op, const BoxAccess &a);
  /// The operands of tileas.global_gather / global_scatter.
  struct ThreadAccess {
    mlir::Value ptr, mask;
    llvm::SmallVector<mlir::Value> indices, strides, bounds;
  };
  mlir::FailureOr<ThreadAccess>
  threadAccess(mlir::Operation *op, const BoxAccess &a, tileir::TileType tile);
  /// A box's index in one array dimension as the threads hold it: `start`
  /// (i32) plus, when the index runs along tile dimension `tileDim` of
  /// `tileShape` (not -1), a tileas.iota along it.
  mlir::Value indexTile(mlir::Operation *op, mlir::Value start,
                        mlir::RankedTensorType i32Tile,
                        llvm::ArrayRef<int64_t> tileShape, int64_t tileDim);
  /// A threads' partition's tile at `index`, each thread its elements of
  /// `regs`' shape.
  mlir::FailureOr<ThreadAccess> partitionAccess(mlir::Operation *op,
                                                const Partition &p,
                                                mlir::ValueRange index,
                                                mlir::RankedTensorType regs);
  /// Dimension `d`'s stride in elements (index) of array `param` whose
  /// strides are `strides` (Partition::strides' form), and its extent.
  mlir::Value strideValue(mlir::Operation *op, unsigned param,
                          llvm::ArrayRef<int64_t> strides, int64_t d);
  mlir::Value boundValue(mlir::Operation *op, unsigned param, int64_t d);
  /// Where a box access starts in one dimension, as a value of `type`
  /// (index for TMA coordinates, i32 for the threads' positions).
  mlir::FailureOr<mlir::Value>
  startValue(mlir::Operation *op, const BoxAccess::Start &s, mlir::Type type);
  mlir::FailureOr<mlir::Value> generalIndexTile(mlir::Operation *op,
                                                mlir::Value index,
                                                tileir::TileType tile,
                                                mlir::RankedTensorType to);
  mlir::LogicalResult lowerGather(tileir::LoadPtrTkoOp op);
  mlir::LogicalResult gatherElement(tileir::LoadPtrTkoOp op,
                                    const BoxAccess &a);
  mlir::LogicalResult lowerScatter(tileir::StorePtrTkoOp op);
  mlir::LogicalResult lowerAtomic(tileir::AtomicRMWTkoOp op);

  //===--- Loop.cpp: the loop the scheduler takes -------------------------===//
  mlir::LogicalResult lowerFor(tileir::ForOp op);
  /// cuTile's persistent loop over output tiles: its body as one tile of a
  /// kernel that walks its own tiles (tileas.tile_count).
  mlir::LogicalResult lowerTileLoop(tileir::ForOp op);
  mlir::LogicalResult lowerInOneTripLoop(mlir::Block &body);
  mlir::LogicalResult lowerAroundLoops(mlir::Block &body);
  mlir::LogicalResult lowerOps(llvm::iterator_range<mlir::Block::iterator> ops);
  /// Moves scalar float math made before the loop into the loop that reads
  /// it (each agent recomputes it there).
  void sinkScalarMathIntoLoops();
  /// Moves register work made before a loop and read only after it (a
  /// tile loaded before the K loop that the epilogue reads) to its first
  /// reader: the roles split at the loop, and only the epilogue's agent
  /// computes it.
  void sinkRegisterWorkPastLoops();

  //===--- Mma.cpp: mmaf/mmai to umma with its TMEM accumulator -----------===//
  mlir::LogicalResult lowerMma(mlir::Operation *op);
  /// Whether iteration value `i` of `loop` is an MMA accumulator (carried in
  /// tensor memory).
  static bool isLoopAccumulator(tileir::ForOp loop, unsigned i);
  /// Whether iteration value `i` of `loop` is read only as the accumulator
  /// of a chain of MMAs whose last result the loop carries: the loop then
  /// adds its products to its initial value, which may be added after it.
  static bool onlyMmasAddTo(tileir::ForOp loop, unsigned i);
  /// Maps result `i` of `op`, lowered from a fresh accumulator, to the
  /// products plus the initial value (D = C + A B with C added once, after
  /// the K loop, by the SIMT code that reads D).
  mlir::LogicalResult addInitAfter(tileir::ForOp op, unsigned i);
  /// A fresh TMEM tile of `tile`'s shape, which the first MMA overwrites.
  mlir::FailureOr<mlir::Value> freshAccumulator(mlir::Operation *user,
                                                tileir::TileType tile);
  /// The TMEM tile an MMA accumulator starts from: a fresh one for zeros
  /// (the first MMA overwrites it), else `init` written to TMEM.
  mlir::FailureOr<mlir::Value> tmemAccumulator(mlir::Operation *user,
                                               mlir::Value init);

  //===--- Elementwise.cpp: SIMT math, shapes, scalars --------------------===//
  mlir::LogicalResult lowerConstant(tileir::ConstantOp op);
  mlir::LogicalResult lowerElementwise(mlir::Operation *op);
  mlir::LogicalResult lowerFPowI(tileir::FPowIOp op);
  mlir::LogicalResult lowerReshape(tileir::ReshapeOp op);
  mlir::LogicalResult lowerBroadcast(tileir::BroadcastOp op);
  mlir::LogicalResult lowerFToF(tileir::FToFOp op);
  mlir::LogicalResult lowerIToF(tileir::IToFOp op);
  mlir::LogicalResult lowerFToI(tileir::FToIOp op);
  /// exti / trunci: integers widened or narrowed (int8 data to i32 before
  /// unpacking, an i32 result to int8), on scalars or tiles in registers.
  mlir::LogicalResult lowerIntCast(mlir::Operation *op);
  mlir::LogicalResult lowerIntegerOp(mlir::Operation *op);
  mlir::LogicalResult lowerIota(tileir::IotaOp op);
  /// `v`, a tile of positions or a mask, made again at the shape `to`
  /// (`added`: the dimensions a broadcast adds).
  mlir::FailureOr<mlir::Value> spreadPositions(mlir::Operation *user,
                                               mlir::Value v,
                                               mlir::RankedTensorType to,
                                               llvm::ArrayRef<int64_t> added);
  mlir::LogicalResult lowerSelect(tileir::SelectOp op);
  mlir::LogicalResult lowerCmpF(tileir::CmpFOp op);

  //===--- Branches.cpp: an if that only computes, both ways --------------===//
  mlir::LogicalResult lowerIf(tileir::IfOp op);

  //===--- Reductions.cpp
  //--------------------------------------------------===//
  mlir::LogicalResult lowerArgReduce(tileir::ReduceOp op, int combiner);
  mlir::LogicalResult lowerRowReduce(tileir::ReduceOp op, int combiner);
  mlir::LogicalResult lowerReduce(tileir::ReduceOp op);
  mlir::LogicalResult lowerScan(tileir::ScanOp op);

  //===--- Hints.cpp
  //--------------------------------------------------------===//
  void reportHints(mlir::Operation *op, tileir::OptimizationHintsAttr hints);

  //===--- Values
  //----------------------------------------------------------===//
  /// The lowered type of a tileir tile as registers: its unit dimensions
  /// dropped (tile<128x1xf32> is a per-row tensor<128xf32>), a scalar for
  /// rank 0 or all-unit shapes.
  static mlir::Type registerType(tileir::TileType tile);
  /// What `v` was lowered to; an error at `user` when nothing was.
  mlir::FailureOr<mlir::Value> lookup(mlir::Operation *user, mlir::Value v);
  /// `v` in registers: a tile in SMEM or TMEM is read once, where it is
  /// made (smem_load, tmem_load). `transpose`: the 2-D tile's transpose,
  /// which only a tile in SMEM has (read the other way).
  mlir::FailureOr<mlir::Value> registers(mlir::Operation *user, mlir::Value v,
                                         bool transpose = false);
  mlir::FailureOr<mlir::Value> transposeThroughSmem(mlir::Operation *user,
                                                    mlir::Value regs);
  void map(mlir::Value from, mlir::Value to) { values[from] = to; }
  /// Maps `result`, the same tile as `source` in another shape (a reshape
  /// of unit dimensions, an assume, a tf32 view), to `lowered`, keeping
  /// whether it is permuted from its SMEM tile.
  void mapSameTile(mlir::Value source, mlir::Value result,
                   mlir::Value lowered) {
    if (permutedTiles.contains(source))
      permutedTiles.insert(result);
    map(result, lowered);
  }
  mlir::LogicalResult lowerOp(mlir::Operation *op);
  mlir::LogicalResult lowerOps(mlir::Block &block);
  mlir::Value indexConstant(int64_t v);
  mlir::Location loc(mlir::Operation *op) { return op->getLoc(); }

  tileir::EntryOp entry;
  mlir::OpBuilder b;
  bool registerMma = false;
  bool fuseLoops = true;
  mlir::func::FuncOp func;
  llvm::SmallVector<KernelParam> params;
  llvm::DenseMap<unsigned, ArrayPart> arrayParts; // entry argument -> part
  llvm::SmallVector<LoweredArg> args;
  std::map<std::tuple<unsigned, int, int64_t>, unsigned> shapeArgs;
  std::map<std::pair<unsigned, llvm::SmallVector<int64_t>>, unsigned> descArgs;
  std::map<unsigned, unsigned> pointerArgs; // param -> argument
  llvm::MapVector<unsigned, unsigned> scalarArgs;    // param -> argument
  llvm::DenseMap<mlir::Value, unsigned> tensorViews; // view -> param
  llvm::DenseMap<mlir::Value, Partition> partitions;
  llvm::DenseMap<mlir::Operation *, BoxAccess> boxAccesses;
  /// The address arithmetic of box accesses: lowered to nothing.
  llvm::DenseSet<mlir::Operation *> addressOps;
  llvm::DenseMap<mlir::Value, mlir::Value> values;
  llvm::DenseMap<mlir::Value, mlir::Value> inRegisters;
  /// The register tiles read transposed from an SMEM tile (smem_load
  /// transposed), by SMEM tile.
  llvm::DenseMap<mlir::Value, mlir::Value> inRegistersTransposed;
  /// SMEM tiles that hold the tileir tile transposed (a dim_map [1, 0] load).
  llvm::DenseSet<mlir::Value> transposedSmem;
  /// tileir tiles that are a permute (swapping the last two dimensions) of
  /// the tile their SMEM tile was loaded as.
  llvm::DenseSet<mlir::Value> permutedTiles;
  /// SMEM tiles loaded with a padding TMA's zero fill does not give: the
  /// extents of the tensor past the tile's origin, per tile dimension, and
  /// the padding value; threads read them padded (Views.cpp).
  struct Padded {
    llvm::SmallVector<mlir::Value> valid;
    mlir::FloatAttr value;
  };
  llvm::DenseMap<mlir::Value, Padded> paddedSmem;
  mlir::FailureOr<Padded> paddingOf(tileir::LoadViewTkoOp op,
                                    const Partition &p,
                                    llvm::ArrayRef<mlir::Value> coords,
                                    mlir::tileas::SmemType smem);
};

} // namespace tilepipe::cutile

#endif // TILEPIPE_FRONTEND_CUTILE_LOWER_LOWERING_H
