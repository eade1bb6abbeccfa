// pcheck-args: --search random --seed 1 --schedules 1
// `scenario` is a contextual keyword: still a valid name elsewhere.
machine Main {
  var scenario: int;
  start state S { entry { scenario = 1; assert scenario == 1; } }
}
