/* Test drivers: a coordinator with participants and clients, with or
   without failures. */
type t2PCConfig = (numClients: int, numParticipants: int, numTransPerClient: int, failParticipants: int);

machine SingleClientNoFailure {
  start state Init {
    entry {
      SetUpTwoPhaseCommitSystem((numClients = 1, numParticipants = 2, numTransPerClient = 1, failParticipants = 0));
    }
  }
}

machine MultipleClientsNoFailure {
  start state Init {
    entry {
      SetUpTwoPhaseCommitSystem((numClients = 2, numParticipants = 2, numTransPerClient = 1, failParticipants = 0));
    }
  }
}

machine MultipleClientsWithFailure {
  start state Init {
    entry {
      SetUpTwoPhaseCommitSystem((numClients = 2, numParticipants = 3, numTransPerClient = 1, failParticipants = 1));
    }
  }
}

fun SetUpTwoPhaseCommitSystem(config: t2PCConfig) {
  var coordinator: Coordinator;
  var participants: seq[Participant];
  var i: int;

  while (i < config.numParticipants) {
    participants += (i, new Participant());
    i = i + 1;
  }
  InitializeTwoPhaseCommitSpecs(config.numParticipants);
  coordinator = new Coordinator(participants);

  i = 0;
  while (i < config.numClients) {
    new Client((coordinator = coordinator, n = config.numTransPerClient, id = i + 1,
                readBack = config.failParticipants == 0));
    i = i + 1;
  }

  if (config.failParticipants > 0) {
    CreateFailureInjector((nodes = ParticipantSet(participants), nFailures = config.failParticipants));
  }
}

fun ParticipantSet(ps: seq[Participant]) : set[machine] {
  var s: set[machine];
  var p: Participant;
  foreach (p in ps) { s += (p); }
  return s;
}

fun InitializeTwoPhaseCommitSpecs(numParticipants: int) {
  announce eMonitor_AtomicityInitialize, numParticipants;
}

fun CreateFailureInjector(config: (nodes: set[machine], nFailures: int)) {
  new FailureInjector(config);
}
