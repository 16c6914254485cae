/* jitprog.c - "JIT-compiled" code named by a perf map, for
 * tests/run-jitmap.sh (x86-64 only): copies two copies of a small
 * counting loop into anonymous executable memory, writes
 * /tmp/perf-PID.map naming them ("START SIZE NAME", hex) as a JIT does,
 * and runs each N times.  The map is removed before exiting unless
 * argv[2] is "keep" (perf script reads it after the run).
 * Build: gcc -O2 -fno-omit-frame-pointer -o jitprog jitprog.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* rax = rdi; loop: dec rax; jnz loop; ret */
extern const unsigned char jit_code_start[], jit_code_end[];
__asm__(".text\n"
	".globl jit_code_start\n"
	"jit_code_start:\n"
	"	mov %rdi, %rax\n"
	"1:	dec %rax\n"
	"	jnz 1b\n"
	"	ret\n"
	".globl jit_code_end\n"
	"jit_code_end:\n");

typedef unsigned long (*jit_fn)(unsigned long);

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 100000000;
	size_t len = (size_t)(jit_code_end - jit_code_start);
	unsigned char *page;
	char path[64];
	FILE *map;
	int i;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(page, jit_code_start, len);
	memcpy(page + 0x100, jit_code_start, len);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (map == NULL) {
		perror(path);
		return 1;
	}
	fprintf(map, "%lx %zx LazyCompile:*count one.js:1\n",
		(unsigned long)page, len);
	fprintf(map, "%lx %zx jit_two\n", (unsigned long)(page + 0x100),
		len);
	if (fclose(map) != 0) {
		perror(path);
		return 1;
	}
	for (i = 0; i < 4; i++) {
		((jit_fn)(void *)page)(n);
		((jit_fn)(void *)(page + 0x100))(n / 2);
	}
	if (argc <= 2 || strcmp(argv[2], "keep") != 0)
		unlink(path);
	return 0;
}
