// pcheck-args: --search random --seed 1 --schedules 1 -v
// P's semantics in corner cases: the message of an assert is evaluated only
// when its condition is false (always, when the condition is a literal);
// choose(0) is 0; an enum's default is its smallest member; % on floats is
// fmod; {{ and }} are braces in every string literal; format takes as many
// arguments as its largest placeholder plus one.
enum Level { HIGH = 7, LOW = 2, MID = 4 }
fun noisy(): string { print "message evaluated"; return "m"; }
machine Main {
  var lvl: Level;
  start state S {
    entry {
      var n: int;
      assert n == 0, noisy();
      assert true, noisy();
      n = choose(0);
      print format("choose(0) = {0}; default Level = {1} ({2})", n, lvl, lvl to int);
      print format("7.5 % 2.0 = {0}; -7.5 % 2.0 = {1}; -7 % 3 = {2}", 7.5 % 2.0, -7.5 % 2.0, -7 % 3);
      print "braces: {{0}} and }}";
      print format("{1} before {0}", "a", "b");
    }
  }
}
