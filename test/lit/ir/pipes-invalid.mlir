// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// One case per verifier message of the pipe and mutex types and the
// pipe, mutex and agent ops.

// expected-error @+1 {{!tileas.pipe payload must be a !tileas.smem or !tileas.tmem tile, got 'tensor<128x64xbf16>'}}
func.func @pipe_payload(%p: !tileas.pipe<tensor<128x64xbf16>>)

// -----

// expected-error @+1 {{!tileas.pipe payload must be a !tileas.smem or !tileas.tmem tile, got '!tileas.tma_desc<128x64xbf16>'}}
func.func @pipe_payload_desc(%p: !tileas.pipe<!tileas.tma_desc<128x64xbf16>>)

// -----

func.func @pipe_depth_zero() {
  // expected-error @+1 {{'tileas.pipe.create' op expects depth in [1, 32], got 0}}
  %p = tileas.pipe.create {depth = 0 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_depth_large() {
  // expected-error @+1 {{'tileas.pipe.create' op expects depth in [1, 32], got 33}}
  %p = tileas.pipe.create {depth = 33 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_depth_missing() {
  // expected-error @+1 {{'tileas.pipe.create' op requires attribute 'depth'}}
  %p = tileas.pipe.create {producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_producer_kind() {
  // expected-error @+1 {{'tileas.pipe.create' op attribute 'producer' failed to satisfy constraint: string attribute whose value is one of tma, umma, simt, cpasync}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "wgmma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_consumer_kind() {
  // expected-error @+1 {{'tileas.pipe.create' op attribute 'consumers' failed to satisfy constraint: consumer kinds}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["tma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_bytes() {
  // expected-error @+1 {{'tileas.pipe.create' op expects bytes >= 0, got -1}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = -1 : i64} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_tma_tmem() {
  // expected-error @+1 {{'tileas.pipe.create' op expects an smem payload for a 'tma' producer, got '!tileas.tmem<128x64xf32>'}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["simt"]} : !tileas.pipe<!tileas.tmem<128x64xf32>>
  return
}

// -----

func.func @pipe_cpasync_tmem() {
  // expected-error @+1 {{'tileas.pipe.create' op expects an smem payload for a 'cpasync' producer, got '!tileas.tmem<128x64xf32>'}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "cpasync", consumers = ["simt"]} : !tileas.pipe<!tileas.tmem<128x64xf32>>
  return
}

// -----

func.func @pipe_umma_smem() {
  // expected-error @+1 {{'tileas.pipe.create' op expects a tmem payload for a 'umma' producer, got '!tileas.smem<128x64xf32>'}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "umma", consumers = ["simt"]} : !tileas.pipe<!tileas.smem<128x64xf32>>
  return
}

// -----

func.func @pipe_tma_store_tmem() {
  // expected-error @+1 {{'tileas.pipe.create' op expects an smem payload for a 'tma_store' consumer, got '!tileas.tmem<128x64xf32>'}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["tma_store"]} : !tileas.pipe<!tileas.tmem<128x64xf32>>
  return
}

// -----

func.func @acquire_type(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index) {
  // expected-error @+1 {{'tileas.pipe.producer_acquire' op failed to verify that the result is one slot of the pipe}}
  %b = tileas.pipe.producer_acquire %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<64x64xbf16>
  return
}

// -----

func.func @wait_type(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index) {
  // expected-error @+1 {{'tileas.pipe.consumer_wait' op failed to verify that the result is one slot of the pipe}}
  %b = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.tmem<128x64xbf16>
  return
}

// -----

func.func @commit_iter(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: i32,
                       %s: !tileas.smem<128x64xbf16>) {
  // expected-error @+1 {{'tileas.pipe.producer_commit' op operand #1 must be index, but got 'i32'}}
  "tileas.pipe.producer_commit"(%p, %k, %s) <{via = "expect_tx"}> : (!tileas.pipe<!tileas.smem<128x64xbf16>>, i32, !tileas.smem<128x64xbf16>) -> ()
  return
}

// -----

func.func @stage_type(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index) {
  // expected-error @+1 {{'tileas.pipe.consumer_release' op attribute 'stage' failed to satisfy constraint: 32-bit signless integer attribute}}
  tileas.pipe.consumer_release %p, %k {stage = 1 : i64} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @mutex_groups() {
  // expected-error @+1 {{'tileas.mutex.create' op expects groups >= 2, got 1}}
  %m = tileas.mutex.create {groups = 1 : i32, impl = "mbarrier"} : !tileas.mutex
  return
}

// -----

func.func @mutex_impl() {
  // expected-error @+1 {{'tileas.mutex.create' op attribute 'impl' failed to satisfy constraint: string attribute whose value is one of namedbar, mbarrier}}
  %m = tileas.mutex.create {groups = 2 : i32, impl = "spin"} : !tileas.mutex
  return
}

// -----

func.func @mutex_namedbar_no_id() {
  // expected-error @+1 {{'tileas.mutex.create' op expects a barrier_id for a 'namedbar' mutex}}
  %m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar"} : !tileas.mutex
  return
}

// -----

func.func @mutex_mbarrier_id() {
  // expected-error @+1 {{'tileas.mutex.create' op expects no barrier_id for an 'mbarrier' mutex}}
  %m = tileas.mutex.create {groups = 2 : i32, impl = "mbarrier", barrier_id = 3 : i32} : !tileas.mutex
  return
}

// -----

func.func @mutex_id_range() {
  // expected-error @+1 {{'tileas.mutex.create' op expects barrier_id in [0, 16), got 16}}
  %m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar", barrier_id = 16 : i32} : !tileas.mutex
  return
}

// -----

func.func @mutex_id_negative() {
  // expected-error @+1 {{'tileas.mutex.create' op expects barrier_id in [0, 16), got -1}}
  %m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar", barrier_id = -1 : i32} : !tileas.mutex
  return
}

// -----

func.func @mutex_ids_overflow() {
  // expected-error @+1 {{'tileas.mutex.create' op expects named barriers 14..16 (one per group) to be below 16}}
  %m = tileas.mutex.create {groups = 3 : i32, impl = "namedbar", barrier_id = 14 : i32} : !tileas.mutex
  return
}

// -----

func.func @lock_group(%m: !tileas.mutex, %g: i32) {
  // expected-error @+1 {{'tileas.mutex.lock' op operand #1 must be index, but got 'i32'}}
  "tileas.mutex.lock"(%m, %g) : (!tileas.mutex, i32) -> ()
  return
}

// -----

func.func @agent_role() {
  // expected-error @+1 {{'tileas.agent' op attribute 'role' failed to satisfy constraint: string attribute whose value is one of load, mma, epilogue, softmax, correction, simt}}
  tileas.agent {role = "store", warps = 1 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_warps() {
  // expected-error @+1 {{'tileas.agent' op expects warps >= 1, got 0}}
  tileas.agent {role = "load", warps = 0 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_regs_step() {
  // expected-error @+1 {{'tileas.agent' op expects regs to be a multiple of 8 in [24, 256] (setmaxnreg), got 41}}
  tileas.agent {role = "load", warps = 1 : i32, regs = 41 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_regs_low() {
  // expected-error @+1 {{'tileas.agent' op expects regs to be a multiple of 8 in [24, 256] (setmaxnreg), got 16}}
  tileas.agent {role = "load", warps = 1 : i32, regs = 16 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_regs_high() {
  // expected-error @+1 {{'tileas.agent' op expects regs to be a multiple of 8 in [24, 256] (setmaxnreg), got 264}}
  tileas.agent {role = "mma", warps = 1 : i32, regs = 264 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_nested() {
  tileas.agent {role = "load", warps = 1 : i32} {
    // expected-error @+1 {{'tileas.agent' op must not be nested in another 'tileas.agent'}}
    tileas.agent {role = "mma", warps = 1 : i32} {
      tileas.agent_yield
    }
    tileas.agent_yield
  }
  return
}

// -----

func.func @agent_terminator() {
  // expected-error @+1 {{'tileas.agent' op expects the body to end with 'tileas.agent_yield'}}
  "tileas.agent"() ({
    "func.return"() : () -> ()
  }) {role = "load", warps = 1 : i32} : () -> ()
  return
}

// -----

func.func @agent_args() {
  // expected-error @+1 {{'tileas.agent' op region should have no arguments}}
  "tileas.agent"() ({
  ^bb0(%x: index):
    "tileas.agent_yield"() : () -> ()
  }) {role = "load", warps = 1 : i32} : () -> ()
  return
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{'tileas.agent_yield' op expects parent op 'tileas.agent'}}
  tileas.agent_yield
}

// -----

func.func @pipe_no_consumers() {
  // expected-error @+1 {{'tileas.pipe.create' op expects at least one consumer kind}}
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = []} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @pipe_shares_depth() {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.create' op shares the buffers of a pipe of depth 2, but has depth 3}}
  %q = tileas.pipe.create shares %p {depth = 3 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @commit_via(%k: index, %s: !tileas.smem<128x64xbf16>) {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.producer_commit' op commits a 'tma' pipe via 'arrive', but that producer completes the full barrier via 'expect_tx'}}
  tileas.pipe.producer_commit %p, %k, %s {via = "arrive"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

// A UMMA reader releases with tcgen05.commit even when the slot's next
// writer is an MMA of the same thread: PTX does not order an MMA behind one
// on another accumulator, so there is no release at issue.
func.func @release_at_issue(%k: index) {
  %p = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  // expected-error @+1 {{'tileas.pipe.consumer_release' op attribute 'via' failed to satisfy constraint: string attribute whose value is one of expect_tx, tcgen05_commit, arrive, cpasync_arrive, bulk_wait}}
  tileas.pipe.consumer_release %p, %k {via = "tc_order"} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  return
}

// -----

func.func @release_via(%k: index) {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.consumer_release' op releases via 'arrive', which none of the pipe's consumers ["umma"] performs}}
  tileas.pipe.consumer_release %p, %k {via = "arrive"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @via_kind(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index) {
  // expected-error @+1 {{'tileas.pipe.consumer_release' op attribute 'via' failed to satisfy constraint: string attribute whose value is one of expect_tx, tcgen05_commit, arrive, cpasync_arrive, bulk_wait}}
  tileas.pipe.consumer_release %p, %k {via = "signal"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @fence_kind() {
  // expected-error @+1 {{'tileas.fence' op attribute 'kind' failed to satisfy constraint: string attribute whose value is one of proxy_async, tcgen05_before, tcgen05_after, tcgen05_wait_st, tcgen05_wait_ld}}
  tileas.fence "membar"
  return
}

// -----

func.func @into_type(%d: !tileas.tma_desc<128x64xbf16>, %s: !tileas.smem<64x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op failed to verify that the destination is the result's buffer}}
  %a = "tileas.tma_load"(%d, %i, %i, %s) <{operandSegmentSizes = array<i32: 1, 2, 1>}> : (!tileas.tma_desc<128x64xbf16>, index, index, !tileas.smem<64x64xbf16>) -> !tileas.smem<128x64xbf16>
  return
}

// -----

func.func @commit_value_type(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index,
                             %s: !tileas.smem<64x64xbf16>) {
  // expected-error @+1 {{'tileas.pipe.producer_commit' op failed to verify that the committed value is one slot of the pipe}}
  "tileas.pipe.producer_commit"(%p, %k, %s) <{via = "expect_tx"}> : (!tileas.pipe<!tileas.smem<128x64xbf16>>, index, !tileas.smem<64x64xbf16>) -> ()
  return
}

// -----

func.func @pipe_shares_type(%q: !tileas.pipe<!tileas.smem<64x64xbf16>>) {
  // expected-error @+1 {{'tileas.pipe.create' op failed to verify that a pipe shares the buffers of a pipe of its type}}
  %p = "tileas.pipe.create"(%q) <{depth = 2 : i32, producer = "simt", consumers = ["umma"], operandSegmentSizes = array<i32: 1, 0, 0>}> : (!tileas.pipe<!tileas.smem<64x64xbf16>>) -> !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

func.func @into_type_store(%v: tensor<128x128xbf16>, %s: !tileas.smem<128x64xbf16>) {
  // expected-error @+1 {{'tileas.smem_store' op expects the destination to be the result's buffer, got '!tileas.smem<128x64xbf16>'}}
  %a = "tileas.smem_store"(%v, %s) : (tensor<128x128xbf16>, !tileas.smem<128x64xbf16>) -> !tileas.smem<128x128xbf16>
  return
}

// -----

func.func @commit_via_missing(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %k: index,
                              %s: !tileas.smem<128x64xbf16>) {
  // expected-error @+1 {{'tileas.pipe.producer_commit' op requires attribute 'via'}}
  tileas.pipe.producer_commit %p, %k, %s : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

// A tile stored over another tile's TMEM columns must fit in them.
func.func @tmem_store_over_too_few_columns(%v: tensor<128x128xf32>, %s: !tileas.tmem<128x64xf32>) {
  // expected-error @+1 {{'tileas.tmem_store' op expects the destination's 64 columns of 128 lanes to hold the result's 128 columns of 128 lanes}}
  %p = tileas.tmem_store %v into %s as !tileas.tmem<128x64xf32> : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

func.func @pipe_aliases_and_shares() {
  %p = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  // expected-error @+1 {{'tileas.pipe.create' op expects either 'shares' or 'aliases', not both}}
  %q = "tileas.pipe.create"(%p, %p) <{depth = 1 : i32, producer = "simt", consumers = ["umma"], operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tileas.pipe<!tileas.tmem<128x128xf32>>, !tileas.pipe<!tileas.tmem<128x128xf32>>) -> !tileas.pipe<!tileas.tmem<128x128xf32>>
  return
}

// -----

func.func @pipe_aliases_too_small() {
  %p = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x32xf32>>
  // expected-error @+1 {{'tileas.pipe.create' op aliases the slots of a pipe of '!tileas.tmem<128x32xf32>', which cannot hold its '!tileas.tmem<128x128xbf16>'}}
  %q = tileas.pipe.create aliases %p : !tileas.pipe<!tileas.tmem<128x32xf32>> {depth = 1 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xbf16>>
  return
}

// -----

func.func @pipe_aliases_depth() {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "umma", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  // expected-error @+1 {{'tileas.pipe.create' op aliases the slots of a pipe of depth 2, but has depth 1}}
  %q = tileas.pipe.create aliases %p : !tileas.pipe<!tileas.tmem<128x128xf32>> {depth = 1 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xbf16>>
  return
}

// -----

// A ring tile read by fewer consumer groups arrives for the difference, but
// never more often than the slot's empty barrier expects.
func.func @release_arrivals(%k: index) {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma", "umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.consumer_release' op expects arrivals between 1 and the pipe's 2 consumer entries, got 3}}
  tileas.pipe.consumer_release %p, %k {via = "tcgen05_commit", arrivals = 3 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}

// -----

// A view keeps the bytes: one ring slot holds K 128x64 or V^T 64x128 bf16,
// not a tile of another size.
func.func @view_size(%s: !tileas.smem<128x64xbf16>) {
  // expected-error @+1 {{'tileas.smem_view' op views a tile of 16384 bytes as one of 32768 bytes; a view keeps the size}}
  %v = tileas.smem_view %s : !tileas.smem<128x64xbf16> -> !tileas.smem<128x128xbf16>
  return
}

// -----

// One pipe with two buffers per slot (A and B): only a copy engine's commit
// can add its bytes without arriving.
func.func @joins_producer() {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.create' op joins another pipe, which only a 'tma' producer can}}
  %q = tileas.pipe.create joins %p : !tileas.pipe<!tileas.smem<128x64xbf16>> {depth = 2 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<256x64xbf16>>
  return
}

// -----

func.func @joins_depth() {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.create' op joins a pipe of another producer, depth or consumers (tma, depth 2, ["umma"])}}
  %q = tileas.pipe.create joins %p : !tileas.pipe<!tileas.smem<128x64xbf16>> {depth = 3 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<256x64xbf16>>
  return
}

// -----

func.func @joins_chain() {
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  %q = tileas.pipe.create joins %p : !tileas.pipe<!tileas.smem<128x64xbf16>> {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<256x64xbf16>>
  // expected-error @+1 {{'tileas.pipe.create' op joins a pipe that itself joins, shares or aliases another}}
  %r = tileas.pipe.create joins %q : !tileas.pipe<!tileas.smem<256x64xbf16>> {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<64x64xbf16>>
  return
}
