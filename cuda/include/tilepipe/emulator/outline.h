//===- outline.h - where the emulator's large functions are defined ------===//
//
// The emulator's kernel-independent functions (the CTA scheduler, the
// launch, the tensor-map encoder, the PTX atoms' models: mbarriers, tcgen05,
// wgmma, TMA and bulk copies, named barriers, collectives, reports) and the
// generated main's helpers (host/main.cuh, host/npy.h, host/launch.cuh) are
// defined inline in every translation unit by default. scripts/kernelcache.py
// compiles them once per build into an object (defining TP_EMU_OUTLINE
// empty: non-inline definitions, and TILEPIPE_EMULATOR_LIBRARY: the main's
// templates instantiated for the common element types) and compiles each
// kernel binary with -DTILEPIPE_EMULATOR_EXTERN, which leaves only their
// declarations (non-inline) and `extern template` for the object to satisfy
// at link time: the same code, compiled once instead of in every kernel
// binary (docs/testing.md, "CI time"). Each header keeps such definitions in
// `#if !defined(TILEPIPE_EMULATOR_EXTERN)` blocks, after a declaration of
// every free function among them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_OUTLINE_H
#define TILEPIPE_EMULATOR_OUTLINE_H

#ifndef TP_EMU_OUTLINE
#if defined(TILEPIPE_EMULATOR_EXTERN)
#define TP_EMU_OUTLINE
#else
#define TP_EMU_OUTLINE inline
#endif
#endif

#endif // TILEPIPE_EMULATOR_OUTLINE_H
