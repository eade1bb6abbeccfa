// pcheck-args: --search random --seed 1 --schedules 20
// The start state need not be the first state declared; functions may
// come between states.
event eGo;
machine Main {
  var path: string;
  state Second { entry { path = path + "2"; assert path == "12"; } }
  fun Mark(s: string) { path = path + s; }
  start state First { entry { Mark("1"); send this, eGo; } on eGo goto Second; }
}
