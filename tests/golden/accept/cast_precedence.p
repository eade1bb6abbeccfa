// pcheck-args: --search random --seed 1 --schedules 20
// as and to bind looser than + - and tighter than comparisons; in sits
// with the comparisons, below as/to and above == and !=. An operator of
// higher precedence after a cast applies to the cast's result.
enum E { A, B, C }
machine Main {
  start state S {
    entry {
      var a: any; var s: seq[int]; var f: float;
      a = 2;
      s += (0, 3);
      f = 1 + 2 to float;
      assert f == 3.0;
      assert a as int < 3;
      assert -3 to float == -3.0 && -(a as int) == -2;
      f = 7 - 2 * 3 to float;
      assert f == 1.0;
      assert 1 + 2 in s == true;
      assert B to int + 1 == 2 || false;
      assert !(4 in s) && 1.5 to int == 1 && .5 * 4.0 to int == 2;
      assert C to int * 2 == 2 * 2 == true;
    }
  }
}
