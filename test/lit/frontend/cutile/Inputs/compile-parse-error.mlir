// A use of a value that is never defined: the parser's error.
func.func @f(%a: index) {
  %b = arith.addi %a, %q : index
  return
}
