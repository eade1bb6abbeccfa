// pcheck-args: --search random --seed 1 --schedules 1 -v
// P's permissions: a machine created as an interface may be sent only the
// events that interface receives; eSecret is not among Worker's.
event eWork;
event eSecret;
machine Worker
  receives eWork;
{
  start state S { on eWork do { } }
}
machine Main {
  start state S {
    entry {
      var w: Worker;
      w = new Worker();
      send w, eWork;
      send w, eSecret;
    }
  }
}
