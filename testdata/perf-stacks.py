# perf-stacks.py - dump perf's own view of the sampled stacks.
#
# Run with perf's embedded python:
#   perf script -i FILE --no-inline -s testdata/perf-stacks.py
#
# Output: one line per distinct (event, pid, stack):
#   count<TAB>period_sum<TAB>event<TAB>pid<TAB>stack
# where stack is the leaf-first list of raw absolute addresses in lower-case
# hex without 0x, separated by single spaces.
#   - the stack is param_dict['callchain'] (perf's resolved callchain, which
#     already has the PERF_CONTEXT_* markers stripped); any address
#     >= 0xfffffffffffff000 (context marker) is dropped defensively;
#   - address 0 is dropped (the number dropped is reported on stderr);
#   - a sample without a callchain, or with an empty one, becomes the
#     one-frame stack [sample ip];
#   - with PERF_STACKS_LBR=1 (for --call-graph lbr recordings), a sample
#     whose branch stack is empty loses the last entry of its callchain:
#     perf before 6.7 stitches the "to" address of branch entry 0 even
#     when there is none, reading past the sample (fixed upstream by
#     "perf machine: Avoid out of bounds LBR memory read").
# Lines are written unsorted; sort them with
#   LC_ALL=C sort -t "$(printf '\t')" -k3,3 -k4,4n -k5,5
# Output goes to the file named by $PERF_STACKS_OUT, or to stdout if unset.
# A summary is printed on stderr.

import os
import sys

PERF_CONTEXT_MAX = 0xfffffffffffff000

stacks = {}          # (event, pid, stack) -> [count, period_sum]
n_samples = 0
n_zero = 0           # zero addresses dropped
n_markers = 0        # context markers dropped
n_nochain = 0        # samples without (or with empty) callchain
n_first_ne_ip = 0    # samples whose callchain[0] != sample ip
n_leaf_eq_ret = 0    # samples whose stack[0] == stack[1]


def process_event(param_dict):
    global n_samples, n_zero, n_markers, n_nochain, n_first_ne_ip
    global n_leaf_eq_ret
    sample = param_dict['sample']
    ev = param_dict['ev_name']
    ip = sample['ip']
    chain = param_dict.get('callchain')
    if (chain and os.environ.get('PERF_STACKS_LBR') == '1' and
            'brstack' in param_dict and not param_dict['brstack']):
        chain = chain[:-1]
    addrs = []
    if chain:
        for node in chain:
            a = node['ip']
            if a >= PERF_CONTEXT_MAX:
                n_markers += 1
                continue
            if a == 0:
                n_zero += 1
                continue
            addrs.append(a)
        if chain[0]['ip'] != ip:
            n_first_ne_ip += 1
    if not addrs:
        n_nochain += 1
        addrs = [ip]
    if len(addrs) >= 2 and addrs[0] == addrs[1]:
        n_leaf_eq_ret += 1
    n_samples += 1
    key = (ev, sample['pid'], ' '.join('%x' % a for a in addrs))
    v = stacks.get(key)
    if v is None:
        stacks[key] = [1, sample['period']]
    else:
        v[0] += 1
        v[1] += sample['period']


def trace_unhandled(event_name, context, event_fields_dict,
                    perf_sample_dict=None):
    # Tracepoint samples come here, not to process_event; perf passes the
    # same sample dictionary as the fourth argument.  perf's own event
    # name (ev_name) is the tracepoint's "sys:name".
    if perf_sample_dict is None:
        return
    process_event(perf_sample_dict)


def trace_end():
    path = os.environ.get('PERF_STACKS_OUT')
    out = open(path, 'w') if path else sys.stdout
    for (ev, pid, st), (cnt, per) in stacks.items():
        out.write('%d\t%d\t%s\t%d\t%s\n' % (cnt, per, ev, pid, st))
    if path:
        out.close()
    sys.stderr.write('perf-stacks: samples=%d stacks=%d zero_addrs=%d '
                     'markers=%d no_chain=%d chain0_ne_ip=%d '
                     'leaf_eq_ret=%d\n'
                     % (n_samples, len(stacks), n_zero, n_markers,
                        n_nochain, n_first_ne_ip, n_leaf_eq_ret))
