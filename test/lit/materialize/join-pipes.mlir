// RUN: tilepipe-opt %s -split-input-file --tileas-check-protocol -verify-diagnostics

// One pipe for A and B (`pipe.create joins`, docs/materialize.md "Joined
// pipes"): the joined pipe's slot ops ride on the first pipe's barriers, so
// its acquire and wait must come while the first pipe's are held, and its
// commit and release before the first pipe's. Each function breaks one of
// these; the first is correct and checks clean.

!da = !tileas.tma_desc<128x64xbf16>
!db = !tileas.tma_desc<256x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!sb = !tileas.smem<256x64xbf16>
!acc = !tileas.tmem<128x256xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pb = !tileas.pipe<!tileas.smem<256x64xbf16>>
!pc = !tileas.pipe<!tileas.tmem<128x256xf32>>

func.func @joined(%da: !da, %db: !db, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create joins %pa : !pa {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %i = %c0 to %K step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
      %t = tileas.pipe.producer_acquire %pb, %i : !pb -> !sb
      %b = tileas.tma_load %db[%c0, %i] into %t : !db -> !sb
      tileas.pipe.producer_commit %pb, %i, %b {via = "expect_tx"} : !pb
      %a = tileas.tma_load %da[%c0, %i] into %s : !da -> !sa
      tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "mma", warps = 1 : i32} {
    %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
    %r = scf.for %i = %c0 to %K step %c1 iter_args(%x = %acc) -> (!acc) {
      %a = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
      %b = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
      tileas.fence "tcgen05_after"
      %y = tileas.umma %a, %b, %x {accumulate} : !sa, !sb, !acc -> !acc
      tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
      tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
      scf.yield %y : !acc
    }
    tileas.pipe.producer_commit %pc, %c0, %r {via = "tcgen05_commit"} : !pc
    tileas.agent_yield
  }
  tileas.agent {role = "epilogue", warps = 4 : i32} {
    %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
    tileas.fence "tcgen05_after"
    %v = tileas.tmem_load %w : !acc -> tensor<128x256xf32>
    tileas.fence "tcgen05_wait_ld"
    tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
    tileas.agent_yield
  }
  return
}

// -----

!da = !tileas.tma_desc<128x64xbf16>
!db = !tileas.tma_desc<256x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!sb = !tileas.smem<256x64xbf16>
!acc = !tileas.tmem<128x256xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pb = !tileas.pipe<!tileas.smem<256x64xbf16>>

// B's bytes are added after A's commit arrived: the phase may complete on
// A's bytes alone, before B lands.
// expected-note @+1 {{while executing @commit_after}}
func.func @commit_after(%da: !da, %db: !db, %acc: !acc, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create joins %pa : !pa {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  scf.for %i = %c0 to %K step %c1 {
    %s = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
    %t = tileas.pipe.producer_acquire %pb, %i : !pb -> !sb
    %a = tileas.tma_load %da[%c0, %i] into %s : !da -> !sa
    tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    %b = tileas.tma_load %db[%c0, %i] into %t : !db -> !sb
    // expected-error @+1 {{protocol check failed: unbalanced: thread 'main' at 'tileas.pipe.producer_commit': commits pipe 1 !tileas.pipe<!tileas.smem<256x64xbf16>> slot 0 (pipe iteration 0) of a joined pipe after the commit of pipe 0}}
    tileas.pipe.producer_commit %pb, %i, %b {via = "expect_tx"} : !pb
    %x = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
    %y = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
    tileas.fence "tcgen05_after"
    %z = tileas.umma %x, %y, %acc {accumulate} : !sa, !sb, !acc -> !acc
    tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
  }
  return
}

// -----

!da = !tileas.tma_desc<128x64xbf16>
!db = !tileas.tma_desc<256x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!sb = !tileas.smem<256x64xbf16>
!acc = !tileas.tmem<128x256xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pb = !tileas.pipe<!tileas.smem<256x64xbf16>>

// The consumer waits for B first: B's wait waits for nothing, so the MMA
// could read B before the stage landed.
// expected-note @+1 {{while executing @wait_first}}
func.func @wait_first(%da: !da, %db: !db, %acc: !acc, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create joins %pa : !pa {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  scf.for %i = %c0 to %K step %c1 {
    %s = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
    %t = tileas.pipe.producer_acquire %pb, %i : !pb -> !sb
    %b = tileas.tma_load %db[%c0, %i] into %t : !db -> !sb
    tileas.pipe.producer_commit %pb, %i, %b {via = "expect_tx"} : !pb
    %a = tileas.tma_load %da[%c0, %i] into %s : !da -> !sa
    tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    // expected-error @+1 {{protocol check failed: unbalanced: thread 'main' at 'tileas.pipe.consumer_wait': waits for pipe 1 !tileas.pipe<!tileas.smem<256x64xbf16>> slot 0 (pipe iteration 0) of a joined pipe without holding the consumer_wait of pipe 0}}
    %y = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
    %x = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
    tileas.fence "tcgen05_after"
    %z = tileas.umma %x, %y, %acc {accumulate} : !sa, !sb, !acc -> !acc
    tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
  }
  return
}

// -----

!da = !tileas.tma_desc<128x64xbf16>
!db = !tileas.tma_desc<256x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!sb = !tileas.smem<256x64xbf16>
!acc = !tileas.tmem<128x256xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pb = !tileas.pipe<!tileas.smem<256x64xbf16>>

// A's release (the stage's one arrival) comes before B's: the producer may
// overwrite B's slot while the consumer still counts it as held.
// expected-note @+1 {{while executing @release_last}}
func.func @release_last(%da: !da, %db: !db, %acc: !acc, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create joins %pa : !pa {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  scf.for %i = %c0 to %K step %c1 {
    %s = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
    %t = tileas.pipe.producer_acquire %pb, %i : !pb -> !sb
    %b = tileas.tma_load %db[%c0, %i] into %t : !db -> !sb
    tileas.pipe.producer_commit %pb, %i, %b {via = "expect_tx"} : !pb
    %a = tileas.tma_load %da[%c0, %i] into %s : !da -> !sa
    tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    %x = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
    %y = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
    tileas.fence "tcgen05_after"
    %z = tileas.umma %x, %y, %acc {accumulate} : !sa, !sb, !acc -> !acc
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
    // expected-error @+1 {{protocol check failed: unbalanced: thread 'main' at 'tileas.pipe.consumer_release': releases pipe 1 !tileas.pipe<!tileas.smem<256x64xbf16>> slot 0 (pipe iteration 0) of a joined pipe after the release of pipe 0}}
    tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
  }
  return
}
