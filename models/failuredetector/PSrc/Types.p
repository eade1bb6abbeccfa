/* Configuration of the failure detector. maxRounds bounds the monitoring:
   after that many successful rounds the detector stops (Done); -1 (the
   original test) monitors forever. bug selects a seeded bug variant
   (PTst/BugTests.p); FD_NONE everywhere else. */
enum tFDBug { FD_NONE, FD_LATE_PONG, FD_CANCEL_RACE, FD_COUNT_PONGS, FD_EARLY_STOP }
type tFDConfig = (nodes: set[Node], nAttempts: int, maxRounds: int, bug: tFDBug);
