// pcheck-args: --search random --seed 1 --schedules 1 -v
// format and print of every kind of value.
enum Color { RED = 0, GREEN = 5 }
type tPair = (a: int, b: string);
machine Main {
  start state Init {
    entry {
      var s: seq[int]; var st: set[string]; var m: map[int, bool]; var p: tPair;
      s += (0, 3); s += (0, 1); s += (2, 2);
      st += ("b"); st += ("a"); st += ("b");
      m[2] = true; m[1] = false;
      p = (a = 1, b = "x");
      print format("int {0} float {1} bool {2} string {3}", -4, 2.5, true, "str");
      print format("seq {0} set {1} map {2}", s, st, m);
      print format("tuple {0} pair {1} enum {2} {3}", (1, true), p, GREEN, RED to int);
      print format("machine {0} event {1} null {2} braces {{0}}", this, halt, null);
    }
  }
}
