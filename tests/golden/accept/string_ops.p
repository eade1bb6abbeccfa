// pcheck-args: --search random --seed 1 --schedules 20
// string concatenation, comparison and sizeof.
machine Main {
  start state S {
    entry { var s: string; s = "ab"; s = s + "cd"; assert s == "abcd" && sizeof(s) == 4 && "abc" < "abd"; }
  }
}
