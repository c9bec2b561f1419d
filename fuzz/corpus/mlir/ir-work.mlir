// RUN: tilepipe-opt %s -tileas-test-work -verify-diagnostics -o /dev/null

// What each op reports through SchedulableOpInterface: its target op class,
// its work (bytes, flops, elements) and which operand is an in-order
// accumulator. Allocations are not schedulable and report nothing.

func.func @copies(%desc: !tileas.tma_desc<128x64xbf16>, %src: memref<?x?xf32>,
                  %i: index) {
  // expected-remark @+1 {{class tma_load bytes 16384 flops 0 elements 0}}
  %a = tileas.tma_load %desc[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // expected-remark @+1 {{class tma_store bytes 16384 flops 0 elements 0}}
  tileas.tma_store %a, %desc[%i, %i] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  // expected-remark @+1 {{class cp_async bytes 16384 flops 0 elements 0}}
  %s = tileas.cp_async %src[%i, %i] : memref<?x?xf32> -> !tileas.smem<64x64xf32>
  %b = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %t = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  return
}

func.func @moves(%t: !tileas.tmem<128x128xf32>, %v: tensor<128x128xbf16>,
                 %s: !tileas.smem<64x128xbf16>, %q: tensor<64x64xf8E4M3FN>) {
  // expected-remark @+1 {{class tmem_load bytes 65536 flops 0 elements 0}}
  %r = tileas.tmem_load %t : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  // expected-remark @+1 {{class tmem_store bytes 32768 flops 0 elements 0}}
  %t2 = tileas.tmem_store %v : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  // expected-remark @+1 {{class smem_load bytes 16384 flops 0 elements 0}}
  %l = tileas.smem_load %s : !tileas.smem<64x128xbf16> -> tensor<64x128xbf16>
  // expected-remark @+1 {{class smem_store bytes 4096 flops 0 elements 0}}
  %s2 = tileas.smem_store %q : tensor<64x64xf8E4M3FN> -> !tileas.smem<64x64xf8E4M3FN>
  return
}

// flops = 2*M*N*K; bytes = the SMEM operands read (A and B for `umma`, only
// B for `umma_ts`); operand 2 is the accumulator.
func.func @umma(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
                %acc: !tileas.tmem<128x256xf32>, %ta: !tileas.tmem<128x64xbf16>) {
  // expected-remark @+1 {{class umma bytes 49152 flops 4194304 elements 0 accumulator 2}}
  %d = tileas.umma %a, %b, %acc {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  // expected-remark @+1 {{class umma_ts bytes 32768 flops 4194304 elements 0 accumulator 2}}
  %e = tileas.umma %ta, %b, %d {accumulate} : !tileas.tmem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return
}

func.func @math(%x: tensor<128x64xf32>, %row: tensor<128xf32>, %s: f32) {
  // expected-remark @+1 {{class exp2 bytes 0 flops 0 elements 8192}}
  %e = tileas.exp2 %x : tensor<128x64xf32>
  // expected-remark @+1 {{class fma bytes 0 flops 0 elements 8192}}
  %0 = tileas.add %x, %e : tensor<128x64xf32>, tensor<128x64xf32>
  // expected-remark @+1 {{class fma bytes 0 flops 0 elements 8192}}
  %1 = tileas.sub %x, %row : tensor<128x64xf32>, tensor<128xf32>
  // expected-remark @+1 {{class fma bytes 0 flops 0 elements 8192}}
  %2 = tileas.mul %x, %s : tensor<128x64xf32>, f32
  // expected-remark @+1 {{class fma bytes 0 flops 0 elements 128}}
  %3 = tileas.max %row, %s : tensor<128xf32>, f32
  // expected-remark @+1 {{class fma bytes 0 flops 0 elements 8192}}
  %4 = tileas.fma %x, %row, %s : tensor<128x64xf32>, tensor<128xf32>, f32
  // expected-remark @+1 {{class cvt bytes 0 flops 0 elements 8192}}
  %5 = tileas.cvt %x : tensor<128x64xf32> -> tensor<128x64xbf16>
  // expected-remark @+1 {{class reduce bytes 0 flops 0 elements 8192}}
  %6 = tileas.reduce_max %x : tensor<128x64xf32> -> tensor<128xf32>
  // expected-remark @+1 {{class reduce bytes 0 flops 0 elements 8192}}
  %7 = tileas.reduce_sum %x : tensor<128x64xf32> -> tensor<128xf32>
  return
}
