/* A device driver between an OS client and a device: types and events
   shared by every machine. The OS sends requests (open, read, write,
   close) and may cancel a read or write; the driver issues one command at a
   time to the device, tagged with a small hardware tag, and times data
   transfers out. The device reports every command's end (done, or aborted)
   as an interrupt record, which reaches the driver through the interrupt
   line (an ISR queueing a DPC), after a delay of its own. */
enum tOp { OP_RESET, OP_OPEN, OP_READ, OP_WRITE, OP_CLOSE }
enum tStatus { ST_SUCCESS, ST_CANCELLED }

/* The seeded bugs; D_NONE is the correct driver. */
enum tDdBug { D_NONE, D_DOUBLE_COMPLETE, D_TAG_WRAP, D_LOST_REQUEST, D_TIMER_RESTART }

type tDdConfig = (numData: int, numCancels: int, numTags: int, bug: tDdBug);
type tOsReq = (client: OsClient, id: int, op: tOp);
type tOsDone = (id: int, status: tStatus);
type tDevCmd = (tag: int, reqId: int, op: tOp);
type tIrq = (tag: int, reqId: int, aborted: bool);

// OS <-> driver
event eOsRequest : tOsReq;
event eOsCancel : int;          // the request id
event eOsComplete : tOsDone;
// driver -> device
event eDevCommand : tDevCmd;
event eDevAbort : int;          // the tag of the command to abort
// device -> interrupt line -> driver
event eIrq : tIrq;
event eDevInterrupt : tIrq;

// announced for the specs: the device carried out a request's command
event eSpecDevExecuted : int;

fun IsData(op: tOp) : bool {
  return op == OP_READ || op == OP_WRITE;
}
