// RUN: tilepipe-opt %examples/gemm_blockscaled_fp8.mlir --tileas-generate-schedule --tileas-materialize-schedule | FileCheck %s
// RUN: tilepipe-opt %examples/gemm_blockscaled_fp8.mlir --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized | FileCheck %s --check-prefix=PEELED

// The block-scaled FP8 GEMM materializes: four TMA -> UMMA pipes (A, B and
// the two UE8M0 scale-factor tiles), and in the MMA agent each iteration
// waits for the scale factors, copies them to TMEM (tcgen05.cp, issued in
// the tensor core's queue) and only then issues the scaled UMMA that reads
// them; the accumulator goes to the epilogue agent through a result pipe.
// CHECK-COUNT-4: tileas.pipe.create {{.*}}consumers = ["umma"]{{.*}}producer = "tma"
// CHECK: tileas.agent {{.*}}role = "mma"
// CHECK: scf.for
// The four pipes are joined (one pair of barriers a stage): A's wait, the
// one that waits, leads.
// CHECK: tileas.pipe.consumer_wait {{.*}} -> !tileas.smem<128x128xf8E4M3FN>
// CHECK: %[[SFB:.*]] = tileas.pipe.consumer_wait {{.*}} -> !tileas.smem<2x32x16xui8>
// CHECK: %[[CB:.*]] = tileas.tmem_copy %[[SFB]]
// CHECK: %[[SFA:.*]] = tileas.pipe.consumer_wait {{.*}} -> !tileas.smem<1x32x16xui8>
// CHECK: %[[CA:.*]] = tileas.tmem_copy %[[SFA]]
// CHECK: tileas.umma {{.*}} scale(%[[CA]], %[[CB]])
// CHECK: tileas.agent {role = "epilogue", tileas.src = #loc{{[0-9]+}}, warps = 4 : i32}

// PEELED: tileas.tmem_copy
// PEELED: tileas.tmem_copy
// PEELED: tileas.umma {{.*}} scale(
