// expect: keys needs a map, not 'seq[int]'
machine Main {
  start state S {
    entry {
      var s: seq[int];
      var k: seq[int];
      k = keys(s);
    }
  }
}
