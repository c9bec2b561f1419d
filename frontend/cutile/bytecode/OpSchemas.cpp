//===- OpSchemas.cpp - the field layout of every opcode -------------------===//
//
// Facts established from cuTile's bytecode writer and checked against
// tileirdisasm on exported kernels (docs/cuda-tile-reader.md). Enum kinds:
// rnd (rounding mode), ovf (integer overflow), sign, pred (comparison),
// ord (NaN ordering), mem (memory ordering), scope. A default after the
// attribute name is the op's default and is left out of the IR, as
// tileirdisasm leaves it out of its text.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/OpSchemas.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilepipe::tileir::bytecode;

#define FLOAT_BINARY "R F u:0:flush_to_zero E:rnd:rounding_mode:0 O O"
#define INT_OVERFLOW "R E:ovf:overflow:0 O O"
#define INT_SIGNED "R E:sign:signedness O O"
#define MIN_MAX_F "R F u:0:propagate_nan u:1:flush_to_zero O O"
#define UNARY "R O"
#define BINARY "R O O"
#define VARIADIC "RS ON"
#define MEMORY                                                                 \
  "F E:mem:memory_ordering_semantics E?0:scope:memory_scope "                  \
  "H?1:optimization_hints"

static const OpSchema kSchemas[] = {
    {0, "absf", UNARY},
    {1, "absi", UNARY},
    {2, "addf", FLOAT_BINARY},
    {3, "addi", INT_OVERFLOW},
    {4, "andi", BINARY},
    {5, "assert", "S:message O"},
    {6, "assume", "R TAG:predicate O"},
    {7, "atomic_cas_tko",
     "SEG R R F E:mem:memory_ordering_semantics E:scope:memory_scope O O O "
     "O?0 O?1"},
    {8, "atomic_rmw_tko",
     "SEG R R F E:mem:memory_ordering_semantics E:scope:memory_scope "
     "E:rmw:mode O O O?0 O?1"},
    {9, "bitcast", UNARY},
    {10, "break", VARIADIC},
    {11, "broadcast", UNARY},
    {12, "cat", "R I64:dim O O"},
    {13, "ceil", UNARY},
    {14, "cmpf", "R E:pred:comparison_predicate E:ord:comparison_ordering O O"},
    {15, "cmpi", "R E:pred:comparison_predicate E:sign:signedness O O"},
    {16, "constant", "R CONST:value"},
    {17, "continue", VARIADIC},
    {18, "cos", UNARY},
    {19, "cosh", UNARY},
    {20, "divf", FLOAT_BINARY},
    {21, "divi", "R E:sign:signedness E:rnd:rounding_mode:1 O O"},
    {22, "entry", ""},
    {23, "exp", "R E@3:rnd:rounding_mode:5 O"},
    {24, "exp2", "R F u:0:flush_to_zero O"},
    {37, "exti", "R E:sign:signedness O"},
    {38, "extract", VARIADIC},
    {39, "floor", UNARY},
    {40, "fma", "R F u:0:flush_to_zero E:rnd:rounding_mode:0 O O O"},
    {41, "for", "RS F@2 u:0:unsigned_cmp ON REG1"},
    {42, "ftof", "R E:rnd:rounding_mode:0 O"},
    {43, "ftoi",
     "R F@4 u:0:saturating E:sign:signedness E:rnd:rounding_mode:6 O"},
    {44, "get_global", ""},
    {45, "get_index_space_shape", "RS O"},
    {46, "get_num_tile_blocks", "R R R"},
    {47, "get_tensor_shape", "RS O"},
    {48, "get_tile_block_id", "R R R"},
    {49, "global", ""},
    {50, "if", "RS O REG2"},
    {51, "int_to_ptr", UNARY},
    {58, "iota", "R"},
    {59, "itof", "R E:sign:signedness E:rnd:rounding_mode:0 O"},
    {60, "join_tokens", VARIADIC},
    {61, "load_ptr_tko", "SEG R R " MEMORY " O O?2 O?3 O?4"},
    {62, "load_view_tko", "SEG RS " MEMORY " BA@4:inbounds O OS O?2"},
    {63, "log", UNARY},
    {64, "log2", UNARY},
    {65, "loop", "RS ON REG1"},
    {66, "make_partition_view", UNARY},
    {67, "make_tensor_view", "SEG RS O OS OS"},
    {68, "make_token", "R"},
    {69, "maxf", MIN_MAX_F},
    {70, "maxi", INT_SIGNED},
    {71, "minf", MIN_MAX_F},
    {72, "mini", INT_SIGNED},
    {73, "mmaf", "R F@3 u:0:fast_acc O O O"},
    {74, "mmai", "R E:sign:signedness_lhs E:sign:signedness_rhs O O O"},
    {75, "module", ""},
    {76, "mulf", FLOAT_BINARY},
    {77, "mulhii", BINARY},
    {78, "muli", INT_OVERFLOW},
    {79, "negf", UNARY},
    {80, "negi", "R E@2:ovf:overflow:0 O"},
    {81, "offset", BINARY},
    {82, "ori", BINARY},
    {83, "permute", "R P32:permutation O"},
    {84, "pow", BINARY},
    {85, "print_tko", ""},
    {86, "ptr_to_int", UNARY},
    {87, "ptr_to_ptr", UNARY},
    {88, "reduce", "RS I32:dim ARR:identities ON REG1"},
    {89, "remf", BINARY},
    {90, "remi", INT_SIGNED},
    {91, "reshape", UNARY},
    {92, "return", VARIADIC},
    {93, "rsqrt", "R F u:0:flush_to_zero O"},
    {94, "scan", "RS I32:dim BOOL:reverse ARR:identities ON REG1"},
    {95, "select", "R O O O"},
    {96, "shli", INT_OVERFLOW},
    {97, "shri", INT_SIGNED},
    {98, "sin", UNARY},
    {99, "sinh", UNARY},
    {100, "sqrt", "R F u:0:flush_to_zero E:rnd:rounding_mode:0 O"},
    {101, "store_ptr_tko", "SEG R " MEMORY " O O O?2 O?3"},
    {102, "store_view_tko", "SEG RS " MEMORY " BA@4:inbounds O O OS O?2"},
    {103, "subf", FLOAT_BINARY},
    {104, "subi", INT_OVERFLOW},
    {105, "tan", UNARY},
    {106, "tanh", "R E@2:rnd:rounding_mode:5 O"},
    {107, "trunci", "R E:ovf:overflow:0 O"},
    {108, "xori", BINARY},
    {109, "yield", VARIADIC},
    {110, "atan2", BINARY},
    {111, "pack", ""},
    {112, "unpack", ""},
    {113, "alloca", ""},
    {114, "mmaf_scaled", ""},
    {115, "make_gather_scatter_view", ""},
    {116, "make_strided_view", ""},
    {117, "atomic_red_view_tko", ""},
    {118, "insert", ""},
    {119, "gdc_launch_dependents_tko", ""},
    {120, "gdc_wait_tko", ""},
    {121, "fpowi", BINARY},
    {122, "memory_fence_alias_tko", ""},
};

const OpSchema *tilepipe::tileir::bytecode::lookupOpSchema(uint64_t opcode) {
  const OpSchema *it = llvm::find_if(
      kSchemas, [&](const OpSchema &s) { return s.opcode == opcode; });
  return it == std::end(kSchemas) ? nullptr : it;
}
