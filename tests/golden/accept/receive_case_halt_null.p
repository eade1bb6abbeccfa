// pcheck-args: --check-only
// receive cases may name null (P accepts it; it never fires) and halt.
event eA;
machine Main {
  start state S {
    entry {
      receive { case null, eA: { } case halt: { } }
    }
  }
}
