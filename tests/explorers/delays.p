// A bug that needs exactly K delays under rr: the senders S1..S4 are
// created in order and each sends its number to the counter once; the
// counter fails if the first number it gets is K+1.  Under rr the senders
// run in creation order, so S(K+1) sends first only after S1..SK have each
// been delayed once (a delay moves one machine behind the others).
event eHello : int;
param K : int;

machine Counter {
  start state Wait {
    on eHello do (n: int) {
      assert n != K + 1, format("the first hello came from sender {0}", n);
      goto Done;
    }
  }
  state Done { ignore eHello; }
}

machine Sender {
  start state Init {
    entry (p: (c: Counter, n: int)) { send p.c, eHello, p.n; }
  }
}

machine Main {
  start state Init {
    entry {
      var c: Counter;
      var i: int;
      c = new Counter();
      i = 1;
      while (i <= 4) {
        new Sender((c = c, n = i));
        i = i + 1;
      }
    }
  }
}

test param (K in [0, 1, 2, 3]) tcDelays [main=Main]: { Main, Counter, Sender };
