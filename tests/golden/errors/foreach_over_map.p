// P: foreach iterates a seq or a set; a map is iterated through keys(m) or values(m).
machine Main {
  start state S {
    entry {
      var m: map[int, bool];
      var k: int;
      foreach (k in m) { }
    }
  }
}
