// pcheck-args: --search random --seed 1 --schedules 20
// Declarations may be used before they appear: types, events, functions,
// machines, states and enum members.
event eHello : tGreeting;
fun First() : int { return Second() + 1; }
machine Main {
  start state S {
    entry { var l: Later; l = new Later(this); assert First() == 3 && Mood() == HAPPY; goto T; }
  }
  state T { on eHello do (g: tGreeting) { assert g.text == "hi"; } }
  fun Mood() : tMood { return HAPPY; }
}
machine Later {
  start state S { entry (m: Main) { send m, eHello, (text = "hi", from = this); } }
}
fun Second() : int { return 2; }
type tGreeting = (text: string, from: Later);
enum tMood { SAD, HAPPY }
