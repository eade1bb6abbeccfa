// pcheck-args: --search random --seed 1 --schedules 20
// goto to the current state runs exit and entry again.
machine Main {
  var entries: int; var exits: int;
  start state S {
    entry { entries = entries + 1; if (entries < 3) { goto S; } else { assert exits == 2; } }
    exit { exits = exits + 1; }
  }
}
