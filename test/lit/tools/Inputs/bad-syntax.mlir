func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c0 {
    %x = tileas.bogus
  }
  return
}
