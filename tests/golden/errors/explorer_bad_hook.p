// The checker calls the hooks with fixed parameters.
explorer Odd {
  fun OnSend(sender: machine, e: event) { }
  fun Next(enabled: seq[machine]) : machine { return enabled[0]; }
  fun Delay() : int { return 0; }
}
machine Main { start state S { } }
