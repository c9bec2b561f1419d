// RUN: tilepipe-translate --tileas-to-cuda %s -split-input-file -verify-diagnostics -o /dev/null

// The translation runs the protocol check itself and refuses stage code that
// breaks a pipe or mutex rule, at the first violation and with the words of
// --tileas-check-protocol (it used to emit a kernel that deadlocks or races,
// with exit status 0). The functions are those of
// materialize/check-protocol-broken.mlir that the translation can lay out.

!da = !tileas.tma_desc<128x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!acc = !tileas.tmem<128x128xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pc = !tileas.pipe<!tileas.tmem<128x128xf32>>

// Peeled code whose MMA reads the slot the producer acquired instead of the
// one it waited for: the TMA copy may not have landed.
// expected-note @+1 {{while executing @missing_wait}}
func.func @missing_wait(%d: !da, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
  scf.for %i = %c0 to %K step %c1 {
    %s = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
    %a = tileas.tma_load %d[%c0, %i] into %s : !da -> !sa
    tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    // expected-error @+1 {{protocol check failed: read-before-commit: thread 'main' at 'tileas.umma': reads pipe 0}}
    %x = tileas.umma %a, %a, %acc {accumulate} : !sa, !sa, !acc -> !acc
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
  }
  tileas.pipe.producer_commit %pc, %c0, %acc {via = "tcgen05_commit"} : !pc
  %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
  tileas.fence "tcgen05_after"
  %r = tileas.tmem_load %w : !acc -> tensor<128x128xf32>
  tileas.fence "tcgen05_wait_ld"
  tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
  return
}

// -----

// The second softmax group unlocks before it locks (lock/unlock swapped).
// expected-note @+1 {{while executing @lock_unlock_swapped}}
func.func @lock_unlock_swapped(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar", barrier_id = 8 : i32} : !tileas.mutex
  tileas.agent {role = "softmax", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      tileas.mutex.lock %m, %c0 : !tileas.mutex
      %e = tileas.exp2 %x : tensor<128xf32>
      tileas.mutex.unlock %m, %c0 : !tileas.mutex
    }
    tileas.agent_yield
  }
  tileas.agent {role = "softmax", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      // expected-error @+1 {{protocol check failed: mutual-exclusion: thread 'softmax1' at 'tileas.mutex.unlock': unlocks mutex 0 for group 1 without holding its token}}
      tileas.mutex.unlock %m, %c1 : !tileas.mutex
      %e = tileas.exp2 %x : tensor<128xf32>
      tileas.mutex.lock %m, %c1 : !tileas.mutex
    }
    tileas.agent_yield
  }
  return
}

// -----

!sa = !tileas.smem<128x64xbf16>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>

// A duplicated consumer_wait: the slot is read twice before its release.
// expected-note @+1 {{while executing @double_wait}}
func.func @double_wait(%x: tensor<128x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["simt"]} : !pa
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %v = tileas.smem_store %x into %s : tensor<128x64xbf16> -> !sa
      tileas.pipe.producer_commit %pa, %k, %v {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %w = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      // expected-error @+1 {{protocol check failed: double-wait: thread 'simt1' at 'tileas.pipe.consumer_wait'}}
      %w2 = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      %r = tileas.smem_load %w2 : !sa -> tensor<128x64xbf16>
      tileas.pipe.consumer_release %pa, %k {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  return
}

// -----

!da = !tileas.tma_desc<128x64xbf16>
!sa = !tileas.smem<128x64xbf16>
!acc = !tileas.tmem<128x128xf32>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>
!pc = !tileas.pipe<!tileas.tmem<128x128xf32>>

// The MMA consumer is declared SIMT and releases with a thread arrive while
// its MMA still reads the slot: the next TMA load may overwrite it.
// expected-note @+1 {{while executing @umma_release_via_arrive}}
func.func @umma_release_via_arrive(%d: !da, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["simt"], bytes = 16384 : i64} : !pa
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %a = tileas.tma_load %d[%c0, %k] into %s : !da -> !sa
      tileas.pipe.producer_commit %pa, %k, %a {via = "expect_tx"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "mma", warps = 1 : i32} {
    %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
    scf.for %k = %c0 to %n step %c1 {
      %w = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      %x = tileas.umma %w, %w, %acc {accumulate} : !sa, !sa, !acc -> !acc
      // expected-error @+1 {{protocol check failed: overwrite-before-release: thread 'mma1' at 'tileas.pipe.consumer_release'}}
      tileas.pipe.consumer_release %pa, %k {via = "arrive"} : !pa
    }
    tileas.pipe.producer_commit %pc, %c0, %acc {via = "tcgen05_commit"} : !pc
    %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
    tileas.fence "tcgen05_after"
    %r = tileas.tmem_load %w : !acc -> tensor<128x128xf32>
    tileas.fence "tcgen05_wait_ld"
    tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
    tileas.agent_yield
  }
  return
}

// -----

!sa = !tileas.smem<128x64xbf16>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>

// The consumer waits for iteration k + 1: the last one is never produced.
// expected-note @+1 {{while executing @wait_one_ahead}}
func.func @wait_one_ahead(%x: tensor<128x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["simt"]} : !pa
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %v = tileas.smem_store %x into %s : tensor<128x64xbf16> -> !sa
      tileas.pipe.producer_commit %pa, %k, %v {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %j = arith.addi %k, %c1 : index
      // expected-error @+1 {{protocol check failed: deadlock: thread 'simt1' at 'tileas.pipe.consumer_wait': no thread can run and nothing is in flight}}
      %w = tileas.pipe.consumer_wait %pa, %j : !pa -> !sa
      %r = tileas.smem_load %w : !sa -> tensor<128x64xbf16>
      tileas.pipe.consumer_release %pa, %j {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  return
}

// -----

!sa = !tileas.smem<128x64xbf16>
!pa = !tileas.pipe<!tileas.smem<128x64xbf16>>

// A consumer that never releases its slot.
// expected-note @+1 {{while executing @no_release}}
func.func @no_release(%x: tensor<128x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pa = tileas.pipe.create {depth = 4 : i32, producer = "simt", consumers = ["simt"]} : !pa
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %pa, %k : !pa -> !sa
      %v = tileas.smem_store %x into %s : tensor<128x64xbf16> -> !sa
      tileas.pipe.producer_commit %pa, %k, %v {via = "arrive"} : !pa
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      // expected-error @+1 {{protocol check failed: unbalanced: thread 'simt1' at 'tileas.pipe.consumer_wait': ends holding pipe 0}}
      %w = tileas.pipe.consumer_wait %pa, %k : !pa -> !sa
      %r = tileas.smem_load %w : !sa -> tensor<128x64xbf16>
    }
    tileas.agent_yield
  }
  return
}
