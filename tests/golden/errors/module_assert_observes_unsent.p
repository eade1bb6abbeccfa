// P: a spec asserted on a module must observe only events the module sends.
event eTick;
event eTock;
spec Watch observes eTock { start state S { on eTock do { } } }
machine Main sends eTick; { start state S { entry { send this, eTick; } on eTick do { } } }
test tc [main=Main]: assert Watch in { Main };
