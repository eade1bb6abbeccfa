// pcheck-args: --search random --seed 1 --schedules 20
// Empty statements and empty blocks are statements too.
fun Nothing() { }
fun Semis() { ; ; }
machine Main {
  start state S {
    entry {
      var i: int;
      ;
      { }
      { ; { } }
      while (i < 2) { i = i + 1; ; }
      if (i == 2) { } else { ; }
      Nothing(); Semis();
      assert i == 2;
    }
    exit { }
  }
}
