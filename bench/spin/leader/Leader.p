/* Dolev, Klawe and Rodeh's leader election on a unidirectional ring of N
   nodes: the P twin of leader.pml in this folder (SPIN's LTL/leader.pml),
   statement for statement where the languages allow.
   - leader.pml's channel q[k] of L = 2N slots is node k's inbox (unbounded
     in P; no send in leader.pml ever finds its channel full: SPIN's state
     count is the same with L = 4N);
   - the global nr_leaders and its assertion are the spec OneLeader, told by
     an announce where leader.pml increments nr_leaders;
   - init's atomic block (a random permutation of 1..N over the ring, then N
     runs) is the machine Init; P has no atomic block: each choice, creation
     and send of Init is a scheduling point of its own.
   BUG (tests): a node takes the winner message for its own when the winner
   is its maximum rather than its own number (leader.pml with -DBUG). */
param N : int;
param BUG : bool;

event eOne : int;          // mtype one(nr)
event eTwo : int;          // mtype two(nr)
event eWinner : int;       // mtype winner, nr
event eSucc : machine;     // Init to node 0: its successor, which did not exist when it was created
event eElected : int;      // announced where leader.pml does nr_leaders++

type tNodeInit = (mynumber: int, out: machine);

/* leader.pml: nr_leaders++; assert(nr_leaders == 1) */
spec OneLeader observes eElected {
  var nrLeaders: int;
  start state Counting {
    on eElected do {
      nrLeaders = nrLeaders + 1;
      assert nrLeaders == 1, format("{0} leaders", nrLeaders);
    }
  }
}

/* leader.pml's init: Ini[k] takes the numbers 1..N, each in a free slot
   chosen nondeterministically; node k reads its own inbox (q[k]) and sends
   to node k+1 (q[(k+1)%N]). Node 0 is created first and learns its
   successor last; nodes N-1 down to 1 are created with theirs. */
machine Init {
  start state Start {
    entry {
      var ini: seq[int];
      var free: set[int];
      var nodes: map[int, machine];
      var i: int;
      var k: int;
      while (i < N) {
        ini += (i, 0);
        free += (i);
        i = i + 1;
      }
      i = 1;
      while (i <= N) {
        k = choose(free);
        ini[k] = i;
        free -= (k);
        i = i + 1;
      }
      nodes[0] = new Node((mynumber = ini[0], out = null));
      k = N - 1;
      while (k > 0) {
        nodes[k] = new Node((mynumber = ini[k], out = nodes[(k + 1) % N]));
        k = k - 1;
      }
      send nodes[0], eSucc, nodes[1];
    }
  }
}

machine Node {
  var out: machine;
  var mynumber: int;
  var active: bool;          // bit Active = 1
  var knowWinner: bool;      // bit know_winner = 0
  var nr: int;
  var maximum: int;          // byte maximum = mynumber
  var neighbourR: int;

  start state Created {
    defer eOne, eTwo, eWinner;
    entry (cfg: tNodeInit) {
      mynumber = cfg.mynumber;
      maximum = mynumber;
      active = true;
      out = cfg.out;
      if (out != null) {
        goto Running;
      }
    }
    on eSucc do (succ: machine) {
      out = succ;
      goto Running;
    }
  }

  state Running {
    entry {
      send out, eOne, mynumber;
    }
    on eOne do (x: int) {
      nr = x;
      if (active) {
        if (nr != maximum) {
          send out, eTwo, nr;
          neighbourR = nr;
        } else {
          knowWinner = true;
          send out, eWinner, nr;
        }
      } else {
        send out, eOne, nr;
      }
    }
    on eTwo do (x: int) {
      nr = x;
      if (active) {
        if (neighbourR > nr && neighbourR > maximum) {
          maximum = neighbourR;
          send out, eOne, neighbourR;
        } else {
          active = false;
        }
      } else {
        send out, eTwo, nr;
      }
    }
    on eWinner do (x: int) {
      nr = x;
      if ((!BUG && nr == mynumber) || (BUG && nr == maximum)) {
        announce eElected, nr;
      }
      if (!knowWinner) {
        send out, eWinner, nr;
      }
      goto Ended;
    }
  }

  /* leader.pml's node breaks out of its loop and ends; whatever reaches
     its channel afterwards stays there. */
  state Ended {
    defer eOne, eTwo, eWinner;
  }
}

test param (N in [3, 4, 5]) tcLeader [main=Init]:
  assert OneLeader in { Init, Node };
test param (N in [3], BUG in [true]) tcBugLeader [main=Init]:
  assert OneLeader in { Init, Node };
