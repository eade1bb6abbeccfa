// pcheck-args: --search random --seed 1 --schedules 20
// keys, values and sizeof of maps, seqs, sets and strings.
machine Main {
  start state S {
    entry {
      var m: map[string, int];
      m["b"] = 2; m["a"] = 1;
      assert keys(m)[0] == "a" && values(m)[0] == 1 && sizeof(keys(m)) == 2;
    }
  }
}
