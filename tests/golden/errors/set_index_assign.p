// Sets are indexable for reading only: s[i] cannot be assigned.
machine Main {
  var s: set[int];
  start state Init {
    entry {
      s += (1);
      s[0] = 2;
    }
  }
}
