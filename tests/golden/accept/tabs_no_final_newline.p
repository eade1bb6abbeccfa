// pcheck-args: --search random --seed 1 --schedules 20
// Tabs for indentation and no newline at the end of the file.
machine Main {
	var n: int;
	start state S {
		entry {
			n = 2;
			assert n == 2;
		}
	}
}