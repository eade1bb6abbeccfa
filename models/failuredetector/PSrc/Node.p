/* A node answers pings until it is shut down by the failure injector.
   A node told eCrashWithin(k) (the bounded tests) is faulty: it crashes at
   a moment of its choosing, at the latest instead of answering its
   (k+1)-th ping, so it answers at most k pings. */
event eShutDown;
event eCrashWithin : int;

machine Node {
  var crashWithin: int;   // pings a faulty node may still answer; -1: not faulty
  start state WaitForPing {
    entry {
      crashWithin = -1;
    }
    on ePing do (req: (fd: FailureDetector, trial: int)) {
      if (crashWithin >= 0) {
        if (crashWithin == 0 || $) {
          announce eNodeShutDown, this;
          raise halt;
        }
        crashWithin = crashWithin - 1;
      }
      send req.fd, ePong, (node = this, trial = req.trial);
    }
    on eCrashWithin do (k: int) {
      crashWithin = k;
    }
    on eShutDown do {
      raise halt;
    }
  }
}
