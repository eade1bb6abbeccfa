// pcheck-args: --dump-bytecode
// Codegen: handler tables (do, goto with, defer, ignore, null), nested
// assignment through a map of tuples, send with a tuple payload, receive.
event eSet : (k: int, v: int);
event eGo;
event eIgnored;
machine Main {
  var m: map[int, (a: int, b: bool)];
  start state S {
    entry {
      send this, eSet, (k = 1, v = 2);
      send this, eGo;
    }
    on eSet do (p: (k: int, v: int)) {
      m[p.k] = (a = 0, b = false);
      m[p.k].a = p.v;
    }
    on eGo goto T with { print "leaving S"; }
    defer eIgnored;
  }
  state T {
    ignore eIgnored;
    on null do {
      receive { case eSet: (p: (k: int, v: int)) { assert p.k == 1; } }
    }
  }
}
