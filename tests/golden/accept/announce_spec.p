// pcheck-args: --search random --seed 1 --schedules 20
// announce reaches specs only.
event eNote : string;
spec Listener observes eNote {
  var notes: int;
  start state S { on eNote do (s: string) { notes = notes + 1; assert s == "hello"; } }
}
machine Main { start state S { entry { announce eNote, "hello"; } } }
