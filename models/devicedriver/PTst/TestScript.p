module DeviceStack = { Driver, Device, IrqLine, Timer };
module Os = { OsClient };

test tcTwoTransfers [main=TwoTransfers]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { TwoTransfers });
test tcFiveTransfers [main=FiveTransfers]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { FiveTransfers });
test tcManyTransfers [main=ManyTransfers]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { ManyTransfers });

test tcBugDoubleComplete [main=BugDoubleComplete]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { BugDoubleComplete });
test tcBugTagWrap [main=BugTagWrap]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { BugTagWrap });
test tcBugLostRequest [main=BugLostRequest]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { BugLostRequest });
test tcBugTimerRestart [main=BugTimerRestart]:
  assert CompletedOnce, EveryRequestCompletes in (union DeviceStack, Os, { BugTimerRestart });
