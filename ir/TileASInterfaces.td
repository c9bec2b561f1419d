//===- TileASInterfaces.td - Scheduler-facing op interface -*- tablegen -*-===//
//
// What the modulo scheduler needs from an op, so that the target model can be
// pure data keyed by op class and never switch on op names.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_TILEASINTERFACES_TD
#define TILEPIPE_IR_TILEASINTERFACES_TD

include "mlir/IR/OpBase.td"

def TileAS_SchedulableOpInterface : OpInterface<"SchedulableOpInterface"> {
  let cppNamespace = "::mlir::tileas";
  let description = [{
    An op the scheduler places: it names the target op class whose latency
    and resource footprint apply, and reports its work (bytes, flops,
    elements) for the class's formulas to evaluate.
  }];
  let methods = [
    InterfaceMethod<[{
        Returns the name of the target op class (e.g. "umma", "tma_load").
      }],
      "::llvm::StringRef", "getOpClass">,
    InterfaceMethod<[{
        Returns the work this op does, in the units the target's latency and
        duration formulas consume.
      }],
      "::tilepipe::target::OpWork", "getWork">,
    InterfaceMethod<[{
        Returns true if the operand at `operandIndex` is an in-order
        accumulator, e.g. UMMA's TMEM accumulator: consecutive MMAs on one
        accumulator queue in order on the tensor core, so the scheduler uses
        the class's chain latency for that dependence.
      }],
      "bool", "isAccumulatorOperand", (ins "unsigned":$operandIndex), [{}],
      [{ return false; }]>,
  ];
}

#endif // TILEPIPE_IR_TILEASINTERFACES_TD
