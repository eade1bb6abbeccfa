// pcheck-args: --search random --seed 1 --schedules 1 -v
// String literals: escapes, comment markers and UTF-8 inside strings.
machine Main {
  start state S {
    entry {
      var s: string;
      s = "quote \" backslash \\ tab \t newline \n end";
      print s;
      print "// not a comment /* nor this */";
      print "naïve café ✓";
      assert "a\"b" != "a\\b" && "" == default(string);
      assert "x" + "\t" + "y" == "x\ty";
    }
  }
}
