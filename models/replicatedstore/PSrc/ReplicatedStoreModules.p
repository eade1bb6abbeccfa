/* The modules of the store. */

// the clients
module Clients = { Client };

// the replicated store: a primary and the replicas it creates
module ReplicatedStore = { Primary, Replica };

// the abstract store in place of the replicated one: AbstractStore
// implements the interface Primary, which the clients and the test
// drivers create and talk to
module SingleNodeStore = { AbstractStore -> Primary };
