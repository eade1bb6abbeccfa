/* From SPIN 6.5.2's examples (Debian package spin: Examples/abp.pml),
 * Copyright 1989-2016 Gerard J. Holzmann, BSD-3-clause (bench/spin/LICENSE.spin).
 * Adapted for bench/spin (P twin: Abp.p in this folder): the original has no
 * assertion, so each message now carries a data value, counted modulo N
 * (-DN=..., default 2), and the receiver asserts that it accepts the values
 * in order, none lost and none twice. The lines changed or added are marked
 * "bench/spin". -DBUG seeds a bug for the tests: the sender moves to the next
 * value before its message is acknowledged.
 */
#ifndef N
#define N	2	/* bench/spin */
#endif

/*
 *  a simple example of the use of inline's
 *  (requires Spin version 3.2 or later)
 *
 */

mtype = { msg0, msg1, ack0, ack1 };

chan sender = [1] of { mtype };
chan receiver = [1] of { mtype, byte };	/* bench/spin: the data value */

inline phase(msg, good_ack, bad_ack)
{
	do
	:: sender?good_ack -> value = (value + 1) % N; break	/* bench/spin */
	:: sender?bad_ack
	:: timeout -> 
		if
		:: receiver!msg,value;	/* bench/spin */
#ifdef BUG
			value = (value + 1) % N	/* bench/spin */
#endif
		:: skip	/* lose message */
		fi;
	od
}

inline recv(cur_msg, cur_ack, lst_msg, lst_ack)
{
	do
	:: receiver?cur_msg,d ->	/* bench/spin */
		assert(d == expect); expect = (expect + 1) % N;	/* bench/spin */
		sender!cur_ack; break /* accept */
	:: receiver?lst_msg,d -> sender!lst_ack	/* bench/spin */
	od;
} 

active proctype Sender()
{	byte value;	/* bench/spin */
	do
	:: phase(msg1, ack1, ack0);
	   phase(msg0, ack0, ack1)
	od
}

active proctype Receiver()
{	byte d, expect;	/* bench/spin */
	do
	:: recv(msg1, ack1, msg0, ack0);
	   recv(msg0, ack0, msg1, ack1)
	od
}
