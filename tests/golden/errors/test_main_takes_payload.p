// expect: the main machine 'Driver' of a test cannot take a payload
machine Driver { start state S { entry (n: int) { } } }
test tc [main=Driver]: { Driver };
