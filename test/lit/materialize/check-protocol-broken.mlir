// RUN: tilepipe-opt %s -split-input-file --tileas-check-protocol -verify-diagnostics

// Hand-written materialized code with one protocol bug each.

// A consumer that never releases its slot.
// expected-error @+1 {{protocol check failed for trip count 1: unbalanced: agent 'simt1' (finished): finished with iteration(s) 0 of pipe 'pipe0' waited but never released (seed 1)}}
func.func @no_release(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tileas.pipe.create {depth = 1 : i32, producer = "tma", consumer = "simt"} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %s = tileas.pipe.producer_acquire %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      %a = tileas.tma_load %d[%k, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
      tileas.pipe.producer_commit %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %b = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      %v = tileas.smem_load %b : !tileas.smem<64x64xbf16> -> tensor<64x64xbf16>
    }
    tileas.agent_yield
  }
  return
}

// -----

// A producer that commits a slot it never acquired.
// expected-error @+1 {{protocol check failed for trip count 1: unbalanced: agent 'load0' at 'tileas.pipe.producer_commit' (iteration 0): commits pipe 'pipe0' slot 0 for iteration 0 without an Acquire of it (seed 1)}}
func.func @no_acquire(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumer = "simt"} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %a = tileas.tma_load %d[%k, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
      tileas.pipe.producer_commit %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %b = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      tileas.pipe.consumer_release %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
    }
    tileas.agent_yield
  }
  return
}

// -----

// The second softmax group runs its exp2 without taking its turn.
// expected-error @+1 {{protocol check failed for trip count 1: mutual-exclusion: agent 'softmax1' at 'tileas.mutex.unlock' (iteration 0): unlocks mutex 'mutex0' without holding it: its critical section ran outside the token ring (seed 1)}}
func.func @no_lock(%x: tensor<128xf32>, %n: index) {
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
      %e = tileas.exp2 %x : tensor<128xf32>
      tileas.mutex.unlock %m, %c1 : !tileas.mutex
    }
    tileas.agent_yield
  }
  return
}

// -----

// Two agents that each wait for the other's first value: a deadlock.
// expected-error @+1 {{protocol check failed for trip count 1: deadlock}}
func.func @cross_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumer = "simt"} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  %q = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumer = "simt"} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %b = tileas.pipe.consumer_wait %q, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      tileas.pipe.consumer_release %q, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
      %s = tileas.pipe.producer_acquire %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      tileas.pipe.producer_commit %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
    }
    tileas.agent_yield
  }
  tileas.agent {role = "simt", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      %b = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      tileas.pipe.consumer_release %p, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
      %s = tileas.pipe.producer_acquire %q, %k : !tileas.pipe<!tileas.smem<64x64xbf16>> -> !tileas.smem<64x64xbf16>
      tileas.pipe.producer_commit %q, %k : !tileas.pipe<!tileas.smem<64x64xbf16>>
    }
    tileas.agent_yield
  }
  return
}
