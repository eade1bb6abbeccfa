// pcheck-args: --search random --seed 1 --schedules 20
// Sets and maps keyed by named tuples; choose over them.
type tKey = (node: int, round: int);
machine Main {
  start state S {
    entry {
      var s: set[tKey]; var m: map[tKey, string]; var k: tKey;
      s += ((node = 1, round = 1));
      s += ((node = 1, round = 2));
      s += ((node = 1, round = 1));
      assert sizeof(s) == 2 && (node = 1, round = 2) in s;
      k = choose(s);
      assert k.node == 1 && k in s;
      m[k] = "chosen";
      assert choose(m) == k && m[(node = k.node, round = k.round)] == "chosen";
      s -= (k);
      assert sizeof(s) == 1 && !(k in s);
    }
  }
}
