// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{!tileas.smem must have at least one dimension}}
func.func @smem_rank0(%a: !tileas.smem<f32>)

// -----

// expected-error @+1 {{!tileas.smem dimension 1 must be a static positive size, got 0}}
func.func @smem_zero(%a: !tileas.smem<128x0xbf16>)

// -----

// expected-error @+1 {{expected static shape}}
func.func @smem_dynamic(%a: !tileas.smem<?x64xbf16>)

// -----

// expected-error @+1 {{!tileas.smem element type must be an integer or float type, got 'index'}}
func.func @smem_index(%a: !tileas.smem<128xindex>)

// -----

// expected-error @+1 {{!tileas.smem element type must be an integer or float type, got 'vector<4xf32>'}}
func.func @smem_vector(%a: !tileas.smem<128xvector<4xf32>>)

// -----

// expected-error @+1 {{!tileas.tmem must have rank 2 (lanes x columns), got rank 3}}
func.func @tmem_rank(%a: !tileas.tmem<2x128x128xf32>)

// -----

// expected-error @+1 {{!tileas.tmem dimension 0 maps to lanes and must be at most 128, got 256}}
func.func @tmem_lanes(%a: !tileas.tmem<256x128xf32>)

// -----

// expected-error @+1 {{!tileas.tmem dimension 0 must be a static positive size, got 0}}
func.func @tmem_zero(%a: !tileas.tmem<0x128xf32>)

// -----

// expected-error @+1 {{!tileas.tma_desc box must have rank at most 5, got rank 6}}
func.func @desc_rank(%a: !tileas.tma_desc<1x1x1x1x1x8xf16>)

// -----

// Only the innermost dimension may exceed a hardware box (it is moved as
// several boxes side by side).
// expected-error @+1 {{!tileas.tma_desc box dimension 0 must be at most 256 (only the innermost may be wider), got 512}}
func.func @desc_box(%a: !tileas.tma_desc<512x64xbf16>)

// -----

// expected-error @+1 {{!tileas.tma_desc must have at least one dimension}}
func.func @desc_rank0(%a: !tileas.tma_desc<bf16>)

// -----

// A TMA box's inner extent must be whole 16-byte chunks (cuTensorMapEncodeTiled).
// expected-error @+1 {{!tileas.tma_desc box's inner dimension must span a multiple of 16 bytes (TMA), got 4 x 'ui8' = 32 bits}}
func.func @desc_inner(%a: !tileas.tma_desc<128x4xui8>)
