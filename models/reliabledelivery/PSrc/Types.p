/* Events and types of reliable delivery: a producer hands messages to a
   sender, which gets them to a receiver across a network that may lose
   packets; the receiver hands them to a consumer, each exactly once and in
   order. The protocol is selective repeat: a window of packets out at a
   time, each acknowledged on its own, sequence numbers modulo seqSpace. */

/* A data packet: the n-th message (n from 0) travels with sequence number
   n % seqSpace. */
type tDataPacket = (sender: Sender, receiver: Receiver, seqNum: int, payload: int);
/* An acknowledgement of the data packet with sequence number seqNum. */
type tAckPacket = (sender: Sender, seqNum: int);

/* The seeded bugs; DELIVERY_NONE is the correct protocol. */
enum tDeliveryBug { DELIVERY_NONE, DELIVERY_SMALL_SEQ_SPACE, DELIVERY_NO_REORDER, DELIVERY_NO_REACK }

type tSenderConfig = (network: Network, receiver: Receiver, window: int, seqSpace: int);
type tReceiverConfig = (network: Network, consumer: Consumer, window: int, seqSpace: int, bug: tDeliveryBug);
type tProducerConfig = (sender: Sender, numMessages: int);

// applications <-> endpoints
event eSubmit : seq[int];       // producer -> sender: messages to deliver, in order
event eDeliver : int;           // receiver -> consumer: the next message

// endpoints <-> network
event eSendData : tDataPacket;  // sender -> network
event eSendAck : tAckPacket;    // receiver -> network
event eData : tDataPacket;      // network -> receiver
event eAck : int;               // network -> sender: the sequence number acknowledged
event ePacketLost : int;        // network -> sender: the retransmission timeout of a lost packet (data or ack)
