/* A node answers pings until it is shut down by the failure injector. */
event eShutDown;

machine Node {
  start state WaitForPing {
    on ePing do (req: (fd: FailureDetector, trial: int)) {
      send req.fd, ePong, (node = this, trial = req.trial);
    }
    on eShutDown do {
      raise halt;
    }
  }
}
