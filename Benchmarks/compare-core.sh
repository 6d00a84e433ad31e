#!/usr/bin/env bash
# compare-core.sh: the request core's cost, BEFORE against AFTER, measured in one run, the two
# builds taking turns so that a busy spell on the (shared) machine falls on both alike.
#
#   Benchmarks/compare-core.sh [--rounds R] [--gateway BEFORE AFTER] [--peers BEFORE AFTER] [--raw DIR]
#
#   --gateway BEFORE AFTER  two release builds of `gateway` (swift build -c release --product gateway).
#                           Each round runs, BEFORE then AFTER (AFTER first in every other round):
#                             gateway bench overhead --json                      (1 in flight)
#                             gateway bench overhead --json --all-stages
#                             gateway bench overhead --json --in-flight 64
#                             gateway bench overhead --json --in-flight 64 --all-stages
#                             gateway bench pipeline --json --clients bare,dataFor,provider
#                                    --runs $PIPELINE_RUNS --requests $PIPELINE_REQUESTS
#                           `overhead` reports CPU per request from getrusage (the whole process:
#                           user + system, every thread), over $OVERHEAD_REQUESTS requests after a
#                           warm-up; it has no --cpu (that option is for the sampled benchmarks).
#   --peers BEFORE AFTER    two release builds of the `peers` harness (cd Benchmarks && swift build
#                           -c release --product peers). One SwiftNIO server (`BEFORE serve nio`) in a
#                           child process serves every run; each measurement is a fresh client
#                           process, `peers client KIND IN_FLIGHT REQUESTS 500 URL`, as `peers --only
#                           http` runs them (3,000 requests one at a time, 6,000 with 64 in flight).
#                           Per round and number in flight, every client kind runs once per build,
#                           the two builds back to back (order alternating), the kinds in forward
#                           order in odd rounds and reversed in even ones. Ratios to the bare client
#                           are taken within a round and build, then the median over rounds.
#   --rounds R              rounds (default 3).
#   --raw DIR               keep every raw JSON line there (default: a temporary folder, printed).
#
# Output: Markdown tables on standard output, one row per measurement; columns: BEFORE median of
# the rounds (min–max), AFTER the same, and AFTER/BEFORE of the medians. Progress goes to stderr.
#
# Environment knobs (defaults in brackets): OVERHEAD_REQUESTS [20000], PIPELINE_RUNS [3],
# PIPELINE_REQUESTS [1000], PEERS_SEQUENTIAL [3000], PEERS_PARALLEL [6000],
# PEERS_KINDS [bare-urlsession delegate-urlsession provider-urlsession stages-urlsession
#              bare-ahc provider-ahc stages-ahc].
#
# Run time with the defaults and 3 rounds, on the 2-core shared machine at load 12–15: the gateway
# part 376 s (most of it `bench pipeline`), the peers part 327 s (7 client kinds × 2 builds × 1 and
# 64 in flight × 3 rounds = 84 client processes). Both grow linearly with --rounds.
#
# Giving the same binary as BEFORE and AFTER measures the noise: the ratio column should then
# scatter around 1.
set -euo pipefail

rounds=3
gateway_before="" gateway_after="" peers_before="" peers_after="" raw=""
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --gateway) gateway_before="$2"; gateway_after="$3"; shift 3 ;;
        --peers) peers_before="$2"; peers_after="$3"; shift 3 ;;
        --raw) raw="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare-core.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [[ -z "$gateway_before" && -z "$peers_before" ]]; then
    echo "compare-core.sh: give --gateway BEFORE AFTER and/or --peers BEFORE AFTER (see --help)" >&2
    exit 2
fi
for binary in "$gateway_before" "$gateway_after" "$peers_before" "$peers_after"; do
    if [[ -n "$binary" && ! -x "$binary" ]]; then
        echo "compare-core.sh: '$binary' is not an executable file" >&2
        exit 2
    fi
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compare-core.sh: --rounds takes a whole number ≥ 1" >&2; exit 2; }

OVERHEAD_REQUESTS="${OVERHEAD_REQUESTS:-20000}"
PIPELINE_RUNS="${PIPELINE_RUNS:-3}"
PIPELINE_REQUESTS="${PIPELINE_REQUESTS:-1000}"
PEERS_SEQUENTIAL="${PEERS_SEQUENTIAL:-3000}"
PEERS_PARALLEL="${PEERS_PARALLEL:-6000}"
PEERS_KINDS="${PEERS_KINDS:-bare-urlsession delegate-urlsession provider-urlsession stages-urlsession bare-ahc provider-ahc stages-ahc}"

if [[ -z "$raw" ]]; then raw="$(mktemp -d /tmp/compare-core.XXXXXX)"; fi
mkdir -p "$raw"
data="$raw/measurements.jsonl"
: > "$data"
started=$SECONDS
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "compare-core: raw measurements in $data; load $(load)" >&2

# record SIDE ROUND TAG JSON: one line of the raw file, the tags wrapped around the bench's object.
record() {
    local side="$1" round="$2" tag="$3" line="$4"
    if ! jq -e . >/dev/null 2>&1 <<<"$line"; then
        echo "compare-core: $side $tag (round $round) printed no JSON object: $line" >&2
        exit 1
    fi
    jq -c --arg side "$side" --argjson round "$round" --arg tag "$tag" \
        '{side: $side, round: $round, tag: $tag, result: .}' <<<"$line" >> "$data"
}

# Both sides in turn, BEFORE first in odd rounds and AFTER first in even ones.
sides_for_round() {
    if (( $1 % 2 == 1 )); then echo "before after"; else echo "after before"; fi
}

if [[ -n "$gateway_before" ]]; then
    declare -A gateway=([before]="$gateway_before" [after]="$gateway_after")
    overhead_configs=("1" "1 --all-stages" "64" "64 --all-stages")
    for ((round = 1; round <= rounds; round++)); do
        echo "compare-core: gateway round $round/$rounds, load $(load)" >&2
        for config in "${overhead_configs[@]}"; do
            read -r inflight stages <<<"$config"
            for side in $(sides_for_round "$round"); do
                line="$("${gateway[$side]}" bench overhead --json --requests "$OVERHEAD_REQUESTS" \
                    --in-flight "$inflight" ${stages:+"$stages"} | grep '^{' | tail -1)"
                record "$side" "$round" "overhead" "$line"
            done
        done
        for side in $(sides_for_round "$round"); do
            line="$("${gateway[$side]}" bench pipeline --json --clients bare,dataFor,provider \
                --runs "$PIPELINE_RUNS" --requests "$PIPELINE_REQUESTS" | grep '^{' | tail -1)"
            record "$side" "$round" "pipeline" "$line"
        done
    done
    echo "compare-core: gateway part took $((SECONDS - started)) s" >&2
fi

if [[ -n "$peers_before" ]]; then
    peers_started=$SECONDS
    declare -A peers=([before]="$peers_before" [after]="$peers_after")
    # The server reads its standard input until it closes; the coprocess keeps it open.
    coproc SERVER { exec "$peers_before" serve nio; }
    server_pid=$SERVER_PID server_out=${SERVER[0]} server_in=${SERVER[1]}
    read -r port <&"$server_out"
    [[ "$port" =~ ^[0-9]+$ ]] || { echo "compare-core: the peers server did not start: $port" >&2; exit 1; }
    url="http://127.0.0.1:$port/"
    stop_server() { eval "exec $server_in>&-" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
    trap stop_server EXIT
    read -r -a kinds <<<"$PEERS_KINDS"
    for inflight in 1 64; do
        requests=$PEERS_SEQUENTIAL
        ((inflight == 1)) || requests=$PEERS_PARALLEL
        warmup=$((requests < 500 ? requests : 500))
        for ((round = 1; round <= rounds; round++)); do
            echo "compare-core: peers, $inflight in flight, round $round/$rounds, load $(load)" >&2
            order=("${kinds[@]}")
            if ((round % 2 == 0)); then
                order=()
                for ((k = ${#kinds[@]} - 1; k >= 0; k--)); do order+=("${kinds[k]}"); done
            fi
            index=0
            for kind in "${order[@]}"; do
                # The build that goes first alternates from one kind to the next, and between rounds.
                if (((round + index) % 2 == 1)); then pair="before after"; else pair="after before"; fi
                index=$((index + 1))
                for side in $pair; do
                    line="$("${peers[$side]}" client "$kind" "$inflight" "$requests" "$warmup" "$url" | tail -1)"
                    record "$side" "$round" "peers $kind $inflight" "$line"
                done
            done
        done
    done
    stop_server
    trap - EXIT
    echo "compare-core: peers part took $((SECONDS - peers_started)) s" >&2
fi

echo "compare-core: done in $((SECONDS - started)) s, load $(load)" >&2
python3 "$(dirname "$0")/compare-core-table.py" "$data" "$rounds"
