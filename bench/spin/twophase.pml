/* Two-phase commit with N participants: the protocol of
   models/twophase_n/TwoPhaseN.p in Promela, as close as the languages
   allow (P's unbounded FIFO inboxes become channels large enough never to
   block; P creates the participants, Promela starts them as active
   processes). */
#ifndef N
#define N 3
#endif

mtype = { PREPARE, VOTE, COMMIT, ABORT };

chan toCoord = [N] of { mtype, byte, bool };   /* vote: participant, yes */
chan toPart[N] = [2] of { mtype };

active proctype Coordinator() {
  byte i = 0;
  byte votes = 0;
  byte yes = 0;
  byte who;
  bool v;
  do
  :: i < N -> toPart[i] ! PREPARE; i++
  :: else -> break
  od;
  do
  :: votes < N ->
     toCoord ? VOTE, who, v;
     votes++;
     if
     :: v -> yes++
     :: else -> skip
     fi
  :: else -> break
  od;
  i = 0;
  if
  :: yes == N ->
     do
     :: i < N -> toPart[i] ! COMMIT; i++
     :: else -> break
     od
  :: else ->
     do
     :: i < N -> toPart[i] ! ABORT; i++
     :: else -> break
     od
  fi
}

active [N] proctype Participant() {
  mtype m;
  toPart[_pid - 1] ? PREPARE;
  if
  :: toCoord ! VOTE, _pid - 1, true
  :: toCoord ! VOTE, _pid - 1, false
  fi;
  toPart[_pid - 1] ? m
}
