// pcheck-args: --search random --seed 1 --schedules 1 -v
// print and format with values of several types, repeated and reordered
// placeholders, and a format as an argument of format.
machine Main {
  start state S {
    entry {
      var n: int; var b: bool; var s: string;
      n = 42; b = true; s = "str";
      print format("int {0} bool {1} string {2}", n, b, s);
      print format("{1} before {0}, {0} again", "first", "second");
      print format("outer [{0}]", format("inner {0}", n + 1));
      print format("no placeholders");
      print format("float {0}", 2.5);
      print "plain" + " " + "concatenated";
    }
  }
}
