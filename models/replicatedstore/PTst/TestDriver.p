/* Test drivers: clients on one shared key against a store with some
   replicas; the correct protocol or one seeded bug. The store is whatever
   machine the test's module binds to the interface Primary: the replicated
   store (module ReplicatedStore) or the abstract one (SingleNodeStore). */

/* One client: write, read back, write, read back; two replicas. */
machine TestOneClient {
  start state Init {
    entry {
      var store: Primary;
      store = NewStore(2, STORE_NONE);
      new Client((store = store, id = 1, key = 0, numWrites = 2, readBack = true));
    }
  }
}

/* A writer (write, read back) and a reader (one read) at the same time;
   two replicas. */
machine TestWriterAndReader {
  start state Init {
    entry {
      var store: Primary;
      store = NewStore(2, STORE_NONE);
      new Client((store = store, id = 1, key = 0, numWrites = 1, readBack = true));
      new Client((store = store, id = 2, key = 0, numWrites = 0, readBack = true));
    }
  }
}

/* One client: write, read back; three replicas. */
machine TestThreeReplicas {
  start state Init {
    entry {
      var store: Primary;
      store = NewStore(3, STORE_NONE);
      new Client((store = store, id = 1, key = 0, numWrites = 1, readBack = true));
    }
  }
}

/* Two clients, each writing twice and reading back: too many states for
   the replicated store, used against the abstract one. */
machine TestTwoClients {
  start state Init {
    entry {
      var store: Primary;
      store = NewStore(2, STORE_NONE);
      new Client((store = store, id = 1, key = 0, numWrites = 2, readBack = true));
      new Client((store = store, id = 2, key = 0, numWrites = 2, readBack = true));
    }
  }
}

/* The seeded bugs, each in the configuration of TestOneClient. */
machine BugSkipReplica {
  start state Init {
    entry { OneClientWithBug(STORE_SKIP_REPLICA); }
  }
}

machine BugIdleStop {
  start state Init {
    entry { OneClientWithBug(STORE_IDLE_STOP); }
  }
}

machine BugAckOnData {
  start state Init {
    entry { OneClientWithBug(STORE_ACK_ON_DATA); }
  }
}

fun NewStore(numReplicas: int, bug: tStoreBug) : Primary {
  return new Primary((numReplicas = numReplicas, bug = bug));
}

fun OneClientWithBug(bug: tStoreBug) {
  var store: Primary;
  store = NewStore(2, bug);
  new Client((store = store, id = 1, key = 0, numWrites = 2, readBack = true));
}
