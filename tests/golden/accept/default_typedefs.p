// pcheck-args: --search random --seed 1 --schedules 20
// default(T) through typedefs, machine names, nested tuples and
// collections of tuples; fresh machine variables hold defaults.
type tId = int;
type tInfo = (id: tId, tags: set[string], peer: Worker, pos: (float, bool));
enum Mode { OFF, ON }
machine Worker { start state S { } }
machine Main {
  var info: tInfo;
  var mode: Mode;
  var log: map[tId, seq[tInfo]];
  start state S {
    entry {
      assert info == default(tInfo);
      assert info.id == 0 && sizeof(info.tags) == 0 && info.peer == default(Worker);
      assert info.pos.0 == 0.0 && !info.pos.1;
      assert default(tId) == 0 && (default(Worker) as machine) == null && mode == default(Mode) && mode == OFF;
      assert sizeof(log) == 0 && log == default(map[tId, seq[tInfo]]);
      assert default((a: int, b: (c: string))).b.c == "";
    }
  }
}
