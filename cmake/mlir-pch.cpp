// The translation unit of TilePipeMLIRPCH: it only carries the precompiled
// MLIR and LLVM headers (CMakeLists.txt, TILEPIPE_PCH) that the libraries
// reuse.
