/* state.h: the layout of a State buffer.  One contiguous buffer, no
** pointers and no absolute offsets, every byte defined; each program state
** has exactly one encoding, so equal states are equal bytes.  Bytes are
** spent on what differs between states: a field that is usually absent
** (a pending choice, an inbox, saved frames, a receive table) is present
** only when a flag says so, and numbers are varints.
**
** uv: an unsigned LEB128 varint of at most 32 bits (7 bits a byte, low
** first, the high bit set on all bytes but the last), in its shortest
** form: 0..127 take one byte.  Values: the encodings of vm/value.h.
**
** State:
**   u8 choice            0 none; 1 bool; 2 int in [0,n); 3 element of a
**                        collection; 4 fair bool ($$): a data choice pending
**   uv nmachines         machine records: ids 0 .. nmachines-1
**   if choice: uv machine (suspended at the choice), uv n (its options)
**   then nspecs + nmachines records, the test's specs first, then the
**   machines in id order, each as: uv len, then len bytes of record.
** nspecs is the test's (VmTest.nspecs), not stored.
**
** Record (self-contained: nothing in it depends on where it lies):
**   u8 flags             MF_* below, and RF_INBOX when the inbox is not empty
**   uv type              BcMachine index
**   uv state             current state
**   uv iface             the interface it was created as (0 for specs)
**   if MF_RECEIVE: uv recv          the receive table it waits in
**   if RF_INBOX: uv ninbox (>= 1), then ninbox entries: uv event, payload
**   if MF_RAISED: uv event          the raised event
**   if MF_START or MF_RAISED: payload   (MF_START: the start entry's)
**   unless MF_HALTED: the variables (BcMachine.nvars values)
**   if MF_RUNNING or MF_RECEIVE: uv nframes (>= 1), then the saved frames,
**     outermost first: uv fun, uv pc, uv nstack, the function's nlocals
**     values, then nstack operand values.
** A halted machine is flags (MF_HALTED alone), type, state and iface.
** Records come from vm/state.c only; vm_state_valid checks all of the
** above on bytes from outside. */
#ifndef PCHECK_STATE_H
#define PCHECK_STATE_H

enum {
  MF_HALTED = 1 << 0,    /* halted: record is the header only */
  MF_START = 1 << 1,     /* created; its start state's entry has not run (payload pending) */
  MF_RAISED = 1 << 2,    /* an event is raised and pending */
  MF_RECEIVE = 1 << 3,   /* blocked in receive (recv = table); frames saved at RECEIVE */
  MF_RUNNING = 1 << 4,   /* stopped at a scheduling point inside a handler; frames saved */
  MF_HALTING = 1 << 5,   /* running its state's exit function for an unhandled halt: halts when it returns */
  RF_INBOX = 1 << 6,     /* in the bytes only: the record has an inbox section */
};

#endif
