// pcheck-args: --search random --seed 1 --schedules 20
// Float literals with and without a leading digit, arithmetic, unary
// minus, comparisons and conversions.
machine Main {
  start state S {
    entry {
      var a: float; var b: float; var c: float;
      a = .5; b = 0.25; c = 10.125;
      assert a + b == .75;
      assert a * b == 0.125;
      assert c / 2.0 == 5.0625;
      assert -a < b && -a == 0.0 - .5;
      assert c - 10.0 > .1 && c >= 10.125 && c <= 10.125;
      assert 3 to float / 2.0 == 1.5;
      assert 7.99 to int == 7 && 100.0 to int == 100;
      assert 1.0 != 1.5 && default(float) == 0.0;
    }
  }
}
