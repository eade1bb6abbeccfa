/* The environment: it creates the coordinators (1..m), the recovery
   coordinator, the participants (1..n) and a link each way between each
   participant and each coordinator, then plays a script of actions (a
   test's plan): transactions begun at a coordinator, the termination protocol started
   for a transaction (a participant's timer fired while it waited for the
   decision), a participant's timer firing. A transaction may wait for the
   coordinator's decision, the termination protocol for its outcome, before
   the next action. Nothing else is scripted: which message is delivered
   when is the scheduler's choice. */
enum tActionKind { A_BEGIN, A_TERMINATE, A_TIMEOUT }
// participant: for A_BEGIN the coordinator, for A_TIMEOUT the participant.
type tAction = (kind: tActionKind, txn: int, participant: int, wait: bool);
// viaLinks: every message between a coordinator and a participant goes
// through a link of its own (one per direction and pair); otherwise
// straight to its receiver's inbox (smaller state spaces).
type tTpcSetup = (numCoordinators: int, numParticipants: int, bug: tTpcBug, viaLinks: bool, plan: seq[tAction]);

machine Driver {
  var coordinators: map[int, Coordinator];
  var recovery: Recovery;
  var participants: map[int, Participant];
  var plan: seq[tAction];
  var pc: int;
  var waiting: tAction;

  start state Init {
    entry (s: tTpcSetup) {
      var i: int;
      var c: int;
      var toParticipant: map[int, map[int, machine]];   // coordinator -> participant -> link
      var fromRecovery: map[int, machine];
      var toCoordinator: map[int, machine];
      plan = s.plan;
      c = 1;
      while (c <= s.numCoordinators) {
        coordinators[c] = new Coordinator((id = c, driver = this));
        toParticipant[c] = default(map[int, machine]);
        c = c + 1;
      }
      recovery = new Recovery((driver = this, bug = s.bug));
      i = 1;
      while (i <= s.numParticipants) {
        participants[i] = new Participant((id = i, bug = s.bug));
        toCoordinator = default(map[int, machine]);
        c = 1;
        while (c <= s.numCoordinators) {
          toParticipant[c][i] = Channel(participants[i], s.viaLinks);
          toCoordinator[c] = Channel(coordinators[c], s.viaLinks);
          c = c + 1;
        }
        fromRecovery[i] = Channel(participants[i], s.viaLinks);
        send participants[i], eConnectParticipant, (coordinators = toCoordinator, recovery = Channel(recovery, s.viaLinks),
                                                   viaLinks = s.viaLinks);
        i = i + 1;
      }
      c = 1;
      while (c <= s.numCoordinators) {
        send coordinators[c], eConnect, (peers = toParticipant[c], viaLinks = s.viaLinks);
        c = c + 1;
      }
      send recovery, eConnect, (peers = fromRecovery, viaLinks = s.viaLinks);
      goto Running;
    }
  }

  state Running {
    entry {
      var act: tAction;
      while (pc < sizeof(plan)) {
        act = plan[pc];
        pc = pc + 1;
        if (act.kind == A_BEGIN) {
          send coordinators[act.participant], eBegin, act.txn;
        } else if (act.kind == A_TERMINATE) {
          send recovery, eTerminate, act.txn;
        } else {
          send participants[act.participant], eDecisionTimeout, act.txn;
        }
        if (act.wait) {
          waiting = act;
          goto Waiting;
        }
      }
      goto Done;
    }
    ignore eTxDone, eTermDone;
  }

  state Waiting {
    on eTxDone do (m: (txn: int, commit: bool)) {
      if (waiting.kind == A_BEGIN && m.txn == waiting.txn) {
        goto Running;
      }
    }
    on eTermDone do (m: (txn: int, st: tTxState)) {
      if (waiting.kind == A_TERMINATE && m.txn == waiting.txn) {
        goto Running;
      }
    }
  }

  state Done {
    ignore eTxDone, eTermDone;
  }
}

/* A new link to m, or m itself. */
fun Channel(m: machine, viaLinks: bool) : machine {
  if (viaLinks) {
    return new Link(m);
  }
  return m;
}

/* Plan-building helpers. */
fun Begin(plan: seq[tAction], coord: int, txn: int, wait: bool) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_BEGIN, txn = txn, participant = coord, wait = wait));
  return plan;
}

fun Terminate(plan: seq[tAction], txn: int) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_TERMINATE, txn = txn, participant = 0, wait = true));
  return plan;
}

fun TimerFires(plan: seq[tAction], txn: int, participant: int) : seq[tAction] {
  plan += (sizeof(plan), (kind = A_TIMEOUT, txn = txn, participant = participant, wait = false));
  return plan;
}
