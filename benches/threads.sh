#!/usr/bin/env bash
# Thread scaling: solve each problem with each thread count, report wall and CPU seconds
# (user + system of the whole process, from bash's `time`), and check that every thread
# count printed the same text.
#
#   benches/threads.sh [binary] [threads] [limit] problem.inp...
#
# defaults: binary target/release/chainmate, threads "16 8 4 2 1" (fastest first, so a run
# cut short still reports the rest), limit 300 s per run. Prints one TSV row per run as it
# finishes and a summary table (speedup = 1-thread wall / N-thread wall, and CPU time of N
# threads / CPU time of one, the work that splitting adds) at the end.
set -u
bin=${1:-target/release/chainmate}
threads=${2:-"16 8 4 2 1"}
limit=${3:-300}
shift 3 || true
[ $# -gt 0 ] || { echo "usage: $0 binary threads limit problem.inp..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo -e "problem\tthreads\twall\tuser\tsys\trc\toutput"
rows=()
for p in "$@"; do
    name=$(basename "$p" .inp)
    for t in $threads; do
        TIMEFORMAT="%R %U %S"
        { time "$bin" solve -q --threads "$t" --time-limit "$limit" "$p" \
            >"$tmp/$name.$t.out" 2>"$tmp/$name.$t.err"; echo "rc $?" >"$tmp/rc"; } 2>"$tmp/time"
        read -r wall user sys <"$tmp/time"
        rc=$(cut -d' ' -f2 <"$tmp/rc")
        sum=$(md5sum <"$tmp/$name.$t.out" | cut -c1-12)
        row="$name"$'\t'"$t"$'\t'"$wall"$'\t'"$user"$'\t'"$sys"$'\t'"$rc"$'\t'"$sum"
        echo "$row"
        rows+=("$row")
    done
done
echo
echo "| problem | threads | wall s | cpu s | speedup | cpu / 1-thread cpu | same output |"
echo "|---|---|---|---|---|---|---|"
for p in "$@"; do
    name=$(basename "$p" .inp)
    printf '%s\n' "${rows[@]}" | awk -F'\t' -v n="$name" '
        $1 == n { t[$2] = $2; w[$2] = $3; c[$2] = $4 + $5; s[$2] = $7; r[$2] = $6; k[++m] = $2 }
        END {
            for (i = m; i >= 1; i--) {
                x = k[i]
                same = (s[x] == s[1]) ? "yes" : "NO"
                note = (r[x] == 0) ? "" : " (rc " r[x] ")"
                sp = (1 in w && w[x] > 0) ? sprintf("%.2f", w[1] / w[x]) : "-"
                cr = (1 in c && c[1] > 0) ? sprintf("%.2f", c[x] / c[1]) : "-"
                printf "| %s | %s | %.2f | %.2f | %s | %s | %s%s |\n", n, x, w[x], c[x], sp, cr, same, note
            }
        }'
done
