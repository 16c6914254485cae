#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Make the crafted regression inputs of testdata/regress/ from
# testdata/hot.perf.data (a little-endian file-mode recording whose
# samples are IP|TID|TIME|CALLCHAIN|PERIOD):
#   perl testdata/regress/mkregress.pl testdata/hot.perf.data testdata/regress
# Each is the header and attrs of hot.perf.data, its first records up to
# and including the third sample, then its feature sections, with one
# defect or feature (see testdata/README).
use strict;
use warnings;

my ($src, $dir) = @ARGV;
die "usage: $0 hot.perf.data DIR\n" unless defined $dir;
open(my $in, '<:raw', $src) or die "$src: $!\n";
my $f = do { local $/; <$in> };
close($in);

my ($data_off, $data_size) = unpack('Q<Q<', substr($f, 40, 16));
my @flags = unpack('Q<4', substr($f, 72, 32));
my @bits = grep { $flags[$_ >> 6] & (1 << ($_ & 63)) } 1 .. 255;

# the feature sections, by bit, in the table's order
my $tab = $data_off + $data_size;
my %sect;
for my $i (0 .. $#bits) {
	my ($off, $size) = unpack('Q<Q<', substr($f, $tab + 16 * $i, 16));
	$sect{$bits[$i]} = substr($f, $off, $size);
}

# the records up to the third sample; SAMPLE_AT gets the offset, in the
# data, of each sample kept
my ($pos, $samples, @sample_at) = (0, 0);
while ($samples < 3) {
	my ($type, $misc, $size) =
	    unpack('L<S<S<', substr($f, $data_off + $pos, 8));
	die "no third sample\n" if $size == 0 || $pos + $size > $data_size;
	if ($type == 9) {
		push @sample_at, $pos;
		$samples++;
	}
	$pos += $size;
}

sub write_file {
	my ($name, $data, %sect) = @_;
	my $out = substr($f, 0, $data_off) . $data;
	my $ftab = length($out);
	my $body = '';
	my $first = $ftab + 16 * @bits;
	my $table = '';
	for my $b (@bits) {
		$table .= pack('Q<Q<', $first + length($body),
			       length($sect{$b}));
		$body .= $sect{$b};
	}
	$out .= $table . $body;
	substr($out, 48, 8) = pack('Q<', length($data));
	open(my $o, '>:raw', "$dir/$name") or die "$dir/$name: $!\n";
	print $o $out;
	close($o) or die "$dir/$name: $!\n";
}

my $data = substr($f, $data_off, $pos);

# MEM_TOPOLOGY (bit 22): node 0's bitmap claims 2^64-1 bits, whose
# (bits + 63) / 64 words wrap to 0
my %mt = %sect;
die "no MEM_TOPOLOGY\n" unless exists $mt{22};
substr($mt{22}, 24 + 16, 8) = pack('q<', -1);
write_file('mem-topology-bits.perf.data', $data, %mt);

# the second sample's callchain claims 2^32 entries (nr, after ip,
# pid/tid, time and period)
my $bad = $data;
substr($bad, $sample_at[1] + 8 + 32, 8) = pack('Q<', 1 << 32);
write_file('sample-callchain-nr.perf.data', $bad, %sect);

# hot.perf.data whole, its attrs section moved to the end and made of 100
# copies of its attr whose ids all lie in the data section: each alone
# fits in the file, together they claim 100 times the data's bytes
{
	my ($attr_size, $attrs_off) = unpack('Q<Q<', substr($f, 16, 16));
	my $one = substr($f, $attrs_off, $attr_size - 16) .
		  pack('Q<Q<', $data_off, $data_size & ~7);
	my $out = $f;
	substr($out, 24, 16) = pack('Q<Q<', length($f), 100 * $attr_size);
	$out .= $one x 100;
	open(my $o, '>:raw', "$dir/attr-ids-shared.perf.data") or
	    die "$dir/attr-ids-shared.perf.data: $!\n";
	print $o $out;
	close($o) or die "$dir/attr-ids-shared.perf.data: $!\n";
}

# frames in no mapping just below a mapping with a nonzero offset (Go
# pprof's widening, guards.h): in the second sample the libc frame
# becomes 0x7ffae7e27800, between the vdso and ld.so's text (offset
# 0x1000); in the third the program's caller becomes 0x7ffae7c40000,
# below libc's text (offset 0x26000); perf calls both [unknown].  Callchains: nr, the user
# context marker, then 3 frames.
{
	no warnings 'portable';
	my $u = $data;
	substr($u, $sample_at[1] + 8 + 40 + 24, 8) = pack('Q<', 0x7ffae7e27800);
	substr($u, $sample_at[2] + 8 + 40 + 16, 8) = pack('Q<', 0x7ffae7c40000);
	write_file('unmapped-below-offset.perf.data', $u, %sect);
}

# mappings that overlap part of others (perf keeps the parts not covered,
# util/maps.c): before the first sample, a data mapping over the middle of
# libc's text, and a text mapping of another file over the upper half of
# the program's page; the third sample's libc frame moves into the part
# of libc above the data mapping (file offset 0xf024a).  Each new MMAP2 is
# libc's with its fields and name changed (its sample_id kept).
{
	no warnings 'portable';
	my ($p, $libc) = (0);
	while ($p < $sample_at[0]) {
		my ($type, $misc, $size) = unpack('L<S<S<', substr($data, $p, 8));
		$libc = $p if $type == 10 &&
		    substr($data, $p, $size) =~ m{/libc\.so};
		$p += $size;
	}
	die "no MMAP2 of libc\n" unless defined $libc;
	my $size = unpack('S<', substr($data, $libc + 6, 2));
	my $rec = substr($data, $libc, $size);
	my $name_end = index($rec, "\0", 72);
	my $name_len = ($name_end - 72 + 8) & ~7;
	my $tail = substr($rec, 72 + $name_len);
	my $mmap2 = sub {
		my ($misc, $addr, $len, $pgoff, $prot, $name) = @_;
		my $n = $name . "\0" x (8 - length($name) % 8);
		my $body = substr($rec, 8, 8) .
			   pack('Q<Q<Q<', $addr, $len, $pgoff) .
			   substr($rec, 40, 24) . pack('L<L<', $prot, 2) .
			   $n . $tail;
		return pack('L<S<S<', 10, $misc, 8 + length($body)) . $body;
	};
	# PROT_READ|PROT_WRITE data (misc MMAP_DATA), PROT_READ|PROT_EXEC
	my $ins = $mmap2->(0x2002, 0x7ffae7d00000, 0x10000, 0x1000, 3,
			   '/tmp/overlap-data') .
		  $mmap2->(2, 0x401800, 0x800, 0, 5, '/tmp/overlap-text');
	my $o = substr($data, 0, $sample_at[0]) . $ins .
		substr($data, $sample_at[0]);
	substr($o, $sample_at[2] + length($ins) + 8 + 40 + 24, 8) =
	    pack('Q<', 0x7ffae7d2024a);
	write_file('mmap-overlap.perf.data', $o, %sect);
}

# a kernel module: a pid -1 MMAP of "[p2gmod]" at 0xffffffffc0000000
# (pgoff 0, as perf writes modules), after the kernel's; the second
# sample becomes kernel text called from the module called from the
# program called from libc, the third the module called from kernel text
# called from the program.  Callchains: nr, the kernel context marker,
# kernel frames, the user context marker, user frames.
{
	no warnings 'portable';
	my $m = $data;
	my $kern = 0xffffffffffffff80;
	my $user = 0xfffffffffffffe00;
	my ($kt, $mod) = (0xffffffff8161dc84, 0xffffffffc0000123);
	my @chains = ([$kern, $kt, $mod, $user, 0x401192, 0x7ffae7c5724a],
		      [$kern, $mod, $kt, $user, 0x401192]);
	for my $i (2, 1) {
		my $at = $sample_at[$i];
		my $size = unpack('S<', substr($m, $at + 6, 2));
		my $c = $chains[$i - 1];
		# ip, pid/tid, time and period as they were, the ip the leaf
		my $fields = pack('Q<', $c->[1]) .
			     substr($m, $at + 16, 24);
		my $rec = $fields . pack('Q<*', scalar(@$c), @$c);
		substr($m, $at, $size) =
		    pack('L<S<S<', 9, 1, 8 + length($rec)) . $rec;
	}
	# the kernel's MMAP is the second record: the module's goes after
	# it, with its sample_id trailer
	my $koff = unpack('S<', substr($m, 6, 2));
	my ($ktype, $kmisc, $ksize) = unpack('L<S<S<', substr($m, $koff, 8));
	die "no kernel MMAP second\n" unless $ktype == 1;
	my $trailer = substr($m, $koff + $ksize - 16, 16);
	my $body = pack('l<l<Q<Q<Q<', -1, 0, 0xffffffffc0000000, 0x10000, 0) .
		   pack('a16', '[p2gmod]') . $trailer;
	substr($m, $koff + $ksize, 0) =
	    pack('L<S<S<', 1, $kmisc, 8 + length($body)) . $body;
	write_file('kernel-module.perf.data', $m, %sect);
}

# a recording perf did not finish (killed): data size 0 in the header and
# nothing after the records, though the header still sets the feature
# bits; the libc MMAP2 carries its build ID itself (misc
# PERF_RECORD_MISC_MMAP_BUILD_ID, perf record --buildid-mmap), so the
# build ID is in the records, not in a feature section
{
	my $u = $data;
	my $p = 0;
	while ($p < $sample_at[0]) {
		my ($type, $misc, $size) = unpack('L<S<S<', substr($u, $p, 8));
		if ($type == 10 && substr($u, $p, $size) =~ m{/libc\.so}) {
			substr($u, $p + 4, 2) = pack('S<', $misc | 0x4000);
			substr($u, $p + 40, 24) =
			    pack('Cx3a20', 20, pack('H*', 'c0ffee' x 6 . 'c0'));
		}
		$p += $size;
	}
	my $out = substr($f, 0, $data_off) . $u;
	substr($out, 48, 8) = pack('Q<', 0);
	open(my $o, '>:raw', "$dir/unfinished.perf.data") or
	    die "$dir/unfinished.perf.data: $!\n";
	print $o $out;
	close($o) or die "$dir/unfinished.perf.data: $!\n";
}

# a sample at address 0 in a recording without callchains (perf record
# without -g): the attr's sample_type without CALLCHAIN, each sample
# without its callchain, the second sample's ip 0 (perf script: 0
# [unknown]); the header and attrs written here, the features as they
# were (event_desc keeps the attr it had)
{
	no warnings 'portable';
	my ($attr_size, $attrs_off) = unpack('Q<Q<', substr($f, 16, 16));
	my $st = unpack('Q<', substr($f, $attrs_off + 24, 8));
	die "no CALLCHAIN\n" unless $st & 32;
	my ($z, $p) = ('', 0);
	while ($p < length($data)) {
		my ($type, $misc, $size) = unpack('L<S<S<', substr($data, $p, 8));
		my $rec = substr($data, $p, $size);
		if ($type == 9) {
			# ip, pid/tid, time, period, then the callchain
			my $ip = @sample_at && $p == $sample_at[1] ? 0 :
			    unpack('Q<', substr($rec, 8, 8));
			my $body = pack('Q<', $ip) . substr($rec, 16, 24);
			$rec = pack('L<S<S<', 9, $misc, 8 + length($body)) .
			       $body;
		}
		$z .= $rec;
		$p += $size;
	}
	my $save = substr($f, $attrs_off + 24, 8);
	substr($f, $attrs_off + 24, 8) = pack('Q<', $st & ~32);
	write_file('sample-at-zero.perf.data', $z, %sect);
	substr($f, $attrs_off + 24, 8) = $save;
}

# thread names as perf gives them: the first sample becomes the idle
# task's (pid and tid 0: perf's "swapper"), the second and third of
# thread 5271 of the program, of which the file has no COMM or FORK
# before the second (perf: ":5271") and a COMM "worker" between the two
# (the program's COMM with its pid, tid, name and time changed: 1 ns
# before the third sample's)
{
	my $t = $data;
	my ($p, $comm) = (0);
	while ($p < $sample_at[0]) {
		my ($type, $misc, $size) = unpack('L<S<S<', substr($t, $p, 8));
		$comm = substr($t, $p, $size) if $type == 3 && !defined $comm;
		$p += $size;
	}
	die "no COMM\n" unless defined $comm;
	my $csize = unpack('S<', substr($comm, 6, 2));
	# sample_id: pid/tid, time
	my $when = unpack('Q<', substr($t, $sample_at[2] + 24, 8)) - 1;
	my $trailer = pack('L<L<Q<', 5270, 5271, $when);
	my $body = pack('L<L<', 5270, 5271) . pack('a8', 'worker') . $trailer;
	my $rec = pack('L<S<S<', 3, 0, 8 + length($body)) . $body;
	# pid/tid after the ip
	substr($t, $sample_at[0] + 16, 8) = pack('L<L<', 0, 0);
	substr($t, $sample_at[1] + 16, 8) = pack('L<L<', 5270, 5271);
	substr($t, $sample_at[2] + 16, 8) = pack('L<L<', 5270, 5271);
	substr($t, $sample_at[2], 0) = $rec;
	write_file('thread-names.perf.data', $t, %sect);
}

# what the kernel lost: before the third sample, a LOST_SAMPLES record
# of 1075 samples (perf report: "Total Lost Samples: 1075") and a LOST
# record of 7 events (id 0), each with the sample_id of the program's
# thread 1 ns before the third sample
{
	my $l = $data;
	my ($pid, $tid, $when) =
	    unpack('L<L<Q<', substr($l, $sample_at[2] + 16, 16));
	my $id = pack('L<L<Q<', $pid, $tid, $when - 1);
	my $ls = pack('Q<', 1075) . $id;
	my $lo = pack('Q<Q<', 0, 7) . $id;
	substr($l, $sample_at[2], 0) =
	    pack('L<S<S<', 13, 0, 8 + length($ls)) . $ls .
	    pack('L<S<S<', 2, 0, 8 + length($lo)) . $lo;
	write_file('lost.perf.data', $l, %sect);
}

# the kernel's build ID kept under a vmlinux path, as perf 4.x wrote it
# when it found a vmlinux at record time: the "[kernel.kallsyms]" entry
# of the build-id table renamed /lib/modules/6.18.44-fc-v669/build/vmlinux
# (pid -1, misc kernel as it was); the second sample becomes kernel text
# (0xffffffff8161dc84) called from the program and libc
{
	no warnings 'portable';
	my $k = $data;
	my $at = $sample_at[1];
	my $size = unpack('S<', substr($k, $at + 6, 2));
	my @c = (0xffffffffffffff80, 0xffffffff8161dc84,
		 0xfffffffffffffe00, 0x401192, 0x7ffae7c5724a);
	my $rec = pack('Q<', $c[1]) . substr($k, $at + 16, 24) .
		  pack('Q<*', scalar(@c), @c);
	substr($k, $at, $size) = pack('L<S<S<', 9, 1, 8 + length($rec)) . $rec;
	my %s = %sect;
	my ($in, $out) = ($s{2}, '');
	while (length($in) >= 8) {
		my ($type, $misc, $esize) = unpack('L<S<S<', $in);
		my $e = substr($in, 0, $esize, '');
		my $name = substr($e, 36);
		$name =~ s/\0.*//s;
		if ($name eq '[kernel.kallsyms]') {
			my $n = '/lib/modules/6.18.44-fc-v669/build/vmlinux';
			$n .= "\0" x (64 - length($n) % 64);
			$e = pack('L<S<S<', $type, $misc, 36 + length($n)) .
			     substr($e, 8, 28) . $n;
		}
		$out .= $e;
	}
	$s{2} = $out;
	write_file('kernel-vmlinux-path.perf.data', $k, %s);
}

# a mapped path with spaces: libc's MMAP2 made that of "/opt/my libs/libc
# 2.so" with its build ID in the record (misc MMAP_BUILD_ID), as in
# recordings of programs under "4º ano/" or of "chrome (deleted)"
{
	my $u = $data;
	my $p = 0;
	while ($p < $sample_at[0]) {
		my ($type, $misc, $size) = unpack('L<S<S<', substr($u, $p, 8));
		if ($type == 10 && substr($u, $p, $size) =~ m{/libc\.so}) {
			my $rec = substr($u, $p, $size);
			my $name_end = index($rec, "\0", 72);
			my $tail = substr($rec, 72 + (($name_end - 72 + 8) & ~7));
			my $n = '/opt/my libs/libc 2.so';
			$n .= "\0" x (8 - length($n) % 8);
			my $body = substr($rec, 8, 32) .
				   pack('Cx3a20', 20,
					pack('H*', 'ba5eba11' x 5)) .
				   substr($rec, 64, 8) . $n . $tail;
			substr($u, $p, $size) =
			    pack('L<S<S<', 10, $misc | 0x4000,
				 8 + length($body)) . $body;
			last;
		}
		$p += $size;
	}
	write_file('path-spaces.perf.data', $u, %sect);
}
