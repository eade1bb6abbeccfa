// pcheck-args: --search random --seed 1 --schedules 20
// Operator precedence and associativity.
machine Main {
  start state S {
    entry {
      assert 1 + 2 * 3 == 7;
      assert (1 + 2) * 3 == 9;
      assert 10 - 4 - 3 == 3;
      assert 20 / 2 / 5 == 2;
      assert 7 % 4 == 3;
      assert -2 * -3 == 6;
      assert 1 < 2 == true;
      assert true || false && false;
      assert !(1 > 2) && 2 >= 2 && 3 <= 4 && 1 != 2;
      assert "ab" + "c" == "abc";
      assert 1.5 * 2.0 == 3.0;
    }
  }
}
