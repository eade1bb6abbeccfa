// 'exists' and 'forall' are keywords of P 3 (quantifiers of P's verifier):
// P 3.1 rejects them as names ("\"exists\" keyword is only supported by
// PVerifier backend"), and pcheck says they are keywords.
machine Main { var exists: bool; start state S { entry { exists = true; } } }
