// pcheck-args: --search random --seed 1 --schedules 20
// this, null and halt as values.
machine Main {
  var me: Main; var ev: event; var anyone: machine;
  start state S {
    entry { me = this; anyone = this; ev = halt; assert me == this && ev == halt && anyone != null; }
  }
}
