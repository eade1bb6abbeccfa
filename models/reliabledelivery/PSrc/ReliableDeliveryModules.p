/* The modules of reliable delivery. */

// the applications at the two ends
module Applications = { Producer, Consumer };

// the protocol: its two endpoints
module Endpoints = { Sender, Receiver };

// the network the protocol is meant for: it loses packets
module LossyNet = { Network };

// the abstraction: a network that loses nothing, implementing the
// interface Network that the endpoints and the test drivers use
module PerfectNet = { PerfectNetwork -> Network };
