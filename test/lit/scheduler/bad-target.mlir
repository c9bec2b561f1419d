// RUN: not tilepipe-opt %s --tileas-generate-schedule=target=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tilepipe-opt %s --tileas-generate-schedule=target=%S/../target/Inputs/bad-unknown-slot.json 2>&1 | FileCheck %s --check-prefix=BAD

// A target file that cannot be loaded stops the pass before any loop.
// MISSING: error: failed to load target description: {{.*}}does-not-exist.json
// BAD: error: failed to load target description: {{.*}}bad-unknown-slot.json: op_classes.{{.*}}.slot: unknown slot
func.func @f(%x: tensor<128xf32>) {
  return
}
