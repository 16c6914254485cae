#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# Make testdata/lbr/hot-lbr.perf.data, a recording laid out as perf record
# --call-graph lbr lays one out, from testdata/hot.perf.data (little-endian
# file mode, samples IP|TID|TIME|CALLCHAIN|PERIOD, frame-pointer
# callchains):
#   perl testdata/lbr/mklbr.pl testdata/hot.perf.data \
#       testdata/lbr/hot-lbr.perf.data
# This machine has no PMU, so no LBR; the layout is that of the perfparser
# corpus file vector_static_gcc/perf.lbr.data (perf 5.x, Intel):
#  - every attr (in the attrs section and in the event_desc feature) gets
#    BRANCH_STACK in sample_type and USER|CALL_STACK as
#    branch_sample_type (no HW_INDEX: entries follow nr directly);
#  - each sample keeps its callchain up to the PERF_CONTEXT_USER marker
#    and the first user entry (the user IP, as the kernel records it);
#    the rest of the user part, the return addresses R1..Rn (zeros left
#    out), becomes the branch stack: n entries, newest first, entry i
#    from Ri - 1 (a byte of the call instruction) to the entry of the
#    callee, which is the user IP for entry 0 and R(i-1) - 1 after (any
#    value does: only entry 0's target is read), flags 0;
#  - every fifth sample that has a record after it gets an empty branch
#    stack (perf before 6.7 reads one entry past such a sample: the
#    next record's bytes, never past the data);
#  - a sample without the marker gets an empty branch stack.
# So perf's stitched stack of a sample is its frame-pointer stack with
# every return address minus 1 (testdata/lbr/hot-lbr.perf.data.expected,
# from perf script; see testdata/README).
use strict;
use warnings;

my ($src, $dst) = @ARGV;
die "usage: $0 hot.perf.data OUT\n" unless defined $dst;
open(my $in, '<:raw', $src) or die "$src: $!\n";
my $f = do { local $/; <$in> };
close($in);

my $USER = unpack('Q<', pack('q<', -512));	# PERF_CONTEXT_USER
my $BRANCH_STACK = 1 << 11;
my $BRANCH_TYPE = 1 | (1 << 11);	# USER | CALL_STACK

my ($attr_size, $attrs_off, $attrs_size, $data_off, $data_size) =
    unpack('Q<Q<Q<Q<Q<', substr($f, 16, 40));
my @flags = unpack('Q<4', substr($f, 72, 32));
my @bits = grep { $flags[$_ >> 6] & (1 << ($_ & 63)) } 1 .. 255;

# one attr at offset O of string $_[0]
sub lbr_attr {
	my ($o) = @_;
	my $st = unpack('Q<', substr($f, $o + 24, 8));
	die "sample_type 0x" . sprintf('%x', $st) . ", not IP|TID|TIME|CALLCHAIN|PERIOD\n"
	    unless $st == 0x127;
	substr($f, $o + 24, 8) = pack('Q<', $st | $BRANCH_STACK);
	substr($f, $o + 72, 8) = pack('Q<', $BRANCH_TYPE);
}
for (my $o = $attrs_off; $o < $attrs_off + $attrs_size; $o += $attr_size) {
	lbr_attr($o);
}

# the feature sections, by bit, in the table's order
my $tab = $data_off + $data_size;
my %sect;
for my $i (0 .. $#bits) {
	my ($off, $size) = unpack('Q<Q<', substr($f, $tab + 16 * $i, 16));
	$sect{$bits[$i]} = [$off, $size];
}
# HEADER_EVENT_DESC (bit 12): u32 nr, u32 attr size, then each attr, u32
# nr_ids, a perf_header_string name and the ids
if (exists $sect{12}) {
	my ($o, $size) = @{$sect{12}};
	my ($nr, $asz) = unpack('L<L<', substr($f, $o, 8));
	my $p = $o + 8;
	for (1 .. $nr) {
		lbr_attr($p);
		$p += $asz;
		my $nids = unpack('L<', substr($f, $p, 4));
		my $len = unpack('L<', substr($f, $p + 4, 4));
		$p += 8 + $len + 8 * $nids;
	}
}
$sect{$_} = substr($f, $sect{$_}[0], $sect{$_}[1]) for keys %sect;

my ($pos, $n, $out) = (0, 0, '');
while ($pos < $data_size) {
	my ($type, $misc, $size) =
	    unpack('L<S<S<', substr($f, $data_off + $pos, 8));
	die "bad record at $pos\n" if $size < 8 || $pos + $size > $data_size;
	my $rec = substr($f, $data_off + $pos, $size);
	$pos += $size;
	if ($type != 9) {
		$out .= $rec;
		next;
	}
	# ip, pid/tid, time, period, then the callchain
	my $head = substr($rec, 8, 32);
	my $nr = unpack('Q<', substr($rec, 40, 8));
	my @chain = unpack("Q<$nr", substr($rec, 48, 8 * $nr));
	my ($u) = grep { $chain[$_] == $USER } 0 .. $#chain;
	my @keep = @chain;
	my @br;
	if (defined $u && $u < $#chain) {
		@keep = @chain[0 .. $u + 1];
		my $ip = $chain[$u + 1];
		my @ret = grep { $_ != 0 } @chain[$u + 2 .. $#chain];
		$n++;
		unless ($n % 5 == 0 && $pos < $data_size) {
			for my $i (0 .. $#ret) {
				push @br, $ret[$i] - 1,
				    $i == 0 ? $ip : $ret[$i - 1] - 1, 0;
			}
		}
	}
	my $body = $head . pack('Q<', scalar @keep) . pack('Q<*', @keep) .
	    pack('Q<', @br / 3) . pack('Q<*', @br);
	die "sample too large\n" if 8 + length($body) > 65535;
	$out .= pack('L<S<S<', 9, $misc, 8 + length($body)) . $body;
}

# header and attrs as they were, the new data, then the feature sections
my $file = substr($f, 0, $data_off) . $out;
my $first = length($file) + 16 * @bits;
my ($table, $body) = ('', '');
for my $b (@bits) {
	$table .= pack('Q<Q<', $first + length($body), length($sect{$b}));
	$body .= $sect{$b};
}
$file .= $table . $body;
substr($file, 48, 8) = pack('Q<', length($out));
open(my $o, '>:raw', $dst) or die "$dst: $!\n";
print $o $file;
close($o) or die "$dst: $!\n";
