// expect: function 'Log' returns no value, but its result is used
fun Log(s: string) { print s; }
machine Main {
  start state S {
    entry {
      var x: int;
      x = Log("a");
    }
  }
}
