#!/usr/bin/env bash
# callgrind-core.sh: instructions per request of the request core, counted by valgrind's
# callgrind (independent of the machine's load), with `gateway bench overhead` (a Provider over a
# transport that answers at once) as the loop.
#
#   Benchmarks/callgrind-core.sh GATEWAY [N1 N2]          (defaults: N1 = 2000, N2 = 6000)
#   Benchmarks/callgrind-core.sh --compare BEFORE AFTER [N1 N2]
#
# For each configuration (one at a time and 64 in flight, no stages and --all-stages) it runs
#   valgrind --tool=callgrind gateway bench overhead --requests N --in-flight F [--all-stages]
# for N = N1 and N = N2 and reports (Ir(N2) − Ir(N1)) / (N2 − N1): the start-up, the warm-up and
# the set-up cancel out. `overhead` warms up with min(1000, N) requests before its measured
# N, so N1 must be at least 1000 for the warm-up to be the same in both runs. Ir is the whole
# process's count (every thread). With 64 in flight valgrind runs one thread at a time, so that
# figure includes what the runtime's threads do to hand work to each other under that schedule;
# it is steadier than the CPU clock but not a model of two cores.
#
# valgrind cannot run a Swift program with an async main as it is: libdispatch's dispatch_main()
# parks the main thread in sigsuspend after pthread_exit, and valgrind 3.19 dies there
# ("VALGRIND INTERNAL ERROR: Valgrind received a signal 11", thread 1 in syscall 130). The script
# therefore preloads a ten-line shim (built here with cc) whose dispatch_main() drains the main
# queue on the main thread instead, through libdispatch's own run-loop hooks
# (_dispatch_get_main_queue_handle_4CF, _dispatch_main_queue_callback_4CF, what CoreFoundation
# uses). The program's work is unchanged; only where the main queue's jobs run differs.
#
# Run time with the defaults: 841 s for one binary (the four configurations, eight valgrind runs)
# on the shared 2-core machine at load 12–15, so about half an hour for --compare. The counts
# repeat: two runs of the same binary and count differed by 0.03% (one at a time) and 0.15%
# (64 in flight).
set -euo pipefail

compare=0
if [[ "${1:-}" == "--compare" ]]; then compare=1; shift; fi
if ((compare)); then
    (($# == 2 || $# == 4)) || { echo "usage: callgrind-core.sh --compare BEFORE AFTER [N1 N2]" >&2; exit 2; }
    binaries=("$1" "$2"); labels=(before after); shift 2
else
    (($# == 1 || $# == 3)) || { echo "usage: callgrind-core.sh GATEWAY [N1 N2]  (or --compare BEFORE AFTER [N1 N2])" >&2; exit 2; }
    binaries=("$1"); labels=(gateway); shift 1
fi
n1="${1:-2000}" n2="${2:-6000}"
if ! [[ "$n1" =~ ^[0-9]+$ && "$n2" =~ ^[0-9]+$ ]] || ((n1 < 1000 || n2 <= n1)); then
    echo "callgrind-core.sh: need 1000 ≤ N1 < N2 (got N1 = $n1, N2 = $n2)" >&2
    exit 2
fi
for binary in "${binaries[@]}"; do
    [[ -x "$binary" ]] || { echo "callgrind-core.sh: '$binary' is not an executable file" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "callgrind-core.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

work="$(mktemp -d /tmp/callgrind-core.XXXXXX)"
trap 'rm -rf "$work"' EXIT
dispatch_dir="$(dirname "$(ldd "${binaries[0]}" | awk '/libdispatch\.so/ {print $3; exit}')")"
[[ -f "$dispatch_dir/libdispatch.so" ]] || { echo "callgrind-core.sh: cannot find the libdispatch.so that ${binaries[0]} uses (ldd)" >&2; exit 1; }
cat > "$work/mainloop.c" <<'EOF'
// dispatch_main() that drains the main queue on the main thread (see callgrind-core.sh).
#include <poll.h>
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);
void dispatch_main(void) {
    int handle = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd ready = { handle, POLLIN, 0 };
        poll(&ready, 1, 1000);
        _dispatch_main_queue_callback_4CF(0);
    }
}
EOF
cc -shared -fPIC -O2 -o "$work/libmainloop.so" "$work/mainloop.c" \
    -L"$dispatch_dir" -Wl,-rpath,"$dispatch_dir" -ldispatch

# instructions BINARY N ARGS...: Ir of one run of `bench overhead --requests N ARGS`.
instructions() {
    local binary="$1" count="$2"; shift 2
    local log="$work/log"
    if ! LD_PRELOAD="$work/libmainloop.so" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$binary" bench overhead --requests "$count" "$@" >"$work/out" 2>"$log"; then
        echo "callgrind-core.sh: valgrind failed on $binary bench overhead --requests $count $*:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    local ir
    ir="$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$log" | tail -1)"
    [[ -n "$ir" ]] || { echo "callgrind-core.sh: no 'Collected' line from valgrind:" >&2; tail -20 "$log" >&2; exit 1; }
    echo "$ir"
}

# grouped N: 1234567 as 1,234,567.
grouped() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta' <<<"$1"; }

started=$SECONDS
configs=("1" "1 --all-stages" "64" "64 --all-stages")
echo "Instructions per request, (Ir(N2) − Ir(N1)) / (N2 − N1), N1 = $n1, N2 = $n2, gateway bench overhead (instant transport)"
echo
header="| configuration |"; rule="|---|"
for label in "${labels[@]}"; do header+=" $label: Ir($n1) | Ir($n2) | per request |"; rule+="---:|---:|---:|"; done
((compare)) && { header+=" after / before |"; rule+="---:|"; }
echo "$header"; echo "$rule"
for config in "${configs[@]}"; do
    read -r inflight stages <<<"$config"
    row="| $([[ $inflight == 1 ]] && echo "one at a time" || echo "$inflight in flight")$([[ -n "${stages:-}" ]] && echo ", every stage on" || echo ", no stages") |"
    per=()
    for binary in "${binaries[@]}"; do
        low="$(instructions "$binary" "$n1" --in-flight "$inflight" ${stages:+"$stages"})"
        high="$(instructions "$binary" "$n2" --in-flight "$inflight" ${stages:+"$stages"})"
        each=$(( (high - low) / (n2 - n1) ))
        per+=("$each")
        row+=" $(grouped "$low") | $(grouped "$high") | $(grouped "$each") |"
    done
    ((compare)) && row+=" $(awk -v a="${per[0]}" -v b="${per[1]}" 'BEGIN { printf "%.3f", b / a }') |"
    echo "$row"
done
echo
echo "(valgrind $(valgrind --version | sed 's/valgrind-//'); $((SECONDS - started)) s)"
