#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Make testdata/dwarfprog-nostack.perf.data from the DWARF fixture
# testdata/dwarfprog.perf.data.gz (little-endian file mode, samples
# IP|TID|TIME|ADDR|CALLCHAIN|PERIOD|REGS_USER|STACK_USER|DATA_SRC):
#   gzip -dc testdata/dwarfprog.perf.data.gz |
#       perl testdata/mknostack.pl > testdata/dwarfprog-nostack.perf.data
# Every fourth sample gets a dyn_size of 0, as the kernel writes when it
# could copy none of the user stack (during exec, at exit; the perfparser
# corpus has such samples): the word before DATA_SRC, the last field.
# Nothing moves: the stack bytes stay, unused.  With an argument N, that
# dyn_size is N instead, a stack copy that ends N bytes above the SP, as
# when a frame is larger than the copy perf asked for
# (dwarfprog-shortcopy.perf.data, N = 64).
use strict;
use warnings;

binmode(STDIN);
binmode(STDOUT);
my $dyn = @ARGV ? shift : 0;
my $f = do { local $/; <STDIN> };
my ($data_off, $data_size) = unpack('Q<Q<', substr($f, 40, 16));
my ($pos, $n) = (0, 0);
while ($pos < $data_size) {
	my ($type, $misc, $size) =
	    unpack('L<S<S<', substr($f, $data_off + $pos, 8));
	die "bad record at $pos\n" if $size < 8 || $pos + $size > $data_size;
	if ($type == 9 && ++$n % 4 == 0) {
		my $at = $data_off + $pos + $size - 16;
		# dyn_size is at most the size asked for (4096)
		die "sample at $pos: no dyn_size where expected\n"
		    if unpack('Q<', substr($f, $at, 8)) > 4096;
		substr($f, $at, 8) = pack('Q<', $dyn);
	}
	$pos += $size;
}
print $f;
