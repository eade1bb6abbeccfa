// expect: inbox overflow
// The producer of flood.p with a consumer that counts: the states never
// repeat, and the reduced searches dived for ever with the consumer always
// keeping up.
event eTick;
machine Sink { var seen: int; start state S { on eTick do { seen = seen + 1; } } }
machine Main { var sink: Sink;
  start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
