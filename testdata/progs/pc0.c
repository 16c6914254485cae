/* pc0.c - the program of the zero-return-address fixture
 * (testdata/pc0.gz, testdata/pc0.perf.data.gz): spin() has no call-frame
 * information and points the frame pointer at a frame record whose
 * return address is 0, the mark of the bottom of a thread's stack.
 * libdw's frame-pointer fallback then gives a frame of PC 0 above spin(),
 * and perf2gperf must end the stack there. */
__attribute__((naked, noinline)) void spin(void)
{
	__asm__ volatile(
		"mov %rbp, %r8\n\t"
		"sub $16, %rsp\n\t"
		"movq $0, (%rsp)\n\t"
		"movq $0, 8(%rsp)\n\t"
		"mov %rsp, %rbp\n\t"
		"mov $400000000, %rcx\n"
		"1:\tdec %rcx\n\t"
		"jnz 1b\n\t"
		"add $16, %rsp\n\t"
		"mov %r8, %rbp\n\t"
		"ret");
}

int main(void)
{
	spin();
	return 0;
}
