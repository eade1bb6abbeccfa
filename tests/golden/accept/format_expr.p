// pcheck-args: --search random --seed 1 --schedules 20
// format inside expressions and as assertion messages.
machine Main {
  start state S {
    entry {
      var s: string;
      s = format("{0}-{1}", "a", 1);
      assert s == "a-1", format("got {0}", s);
    }
  }
}
