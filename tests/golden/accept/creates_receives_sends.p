// Machine annotations: receives and sends lists.
event eIn; event eOut;
machine Main receives eIn; sends eOut; {
  start state S { on eIn do { } }
}
