test tcTest_FailureDetector [main=TestMultipleClients]:
  assert ReliableFailureDetector in
  { TestMultipleClients, Client, FailureInjector, FailureDetector, Node, Timer };
