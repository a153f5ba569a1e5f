#!/bin/bash
# CPU per thread of one harness run: perf-reports/probes/thread-cpu.sh JAR OUTDIR [MODE]
# Runs the 200,000 writes/s harness once (MODE: async by default, or none, sync), samples
# utime+stime, minor faults and voluntary and involuntary context switches of every thread from
# /proc/<pid>/task/*/{stat,status} over 10 s of the measured phase, and prints them per thread
# name as ms of CPU per second of run, minor faults per second, wake-ups per second and
# preemptions per second. ENGINE (ringwatch), RATE (200000) and PRODUCER_WAIT (yield) in the
# environment change the run: RATE=2000 ENGINE=disruptor MODE=none is the low-load floor.
# Linux only. The JVM flags are those of README.md.
set -euo pipefail
JAR=$1; OUT=$2; MODE=${3:-async}
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
mkdir -p "$OUT"
data=$(mktemp -d /var/tmp/rw-cpu-XXXX)
trap 'rm -rf "$data"' EXIT
ENGINE=${ENGINE:-ringwatch}
persistence=()
if [ "$ENGINE" = ringwatch ]; then persistence=(--persistence "$MODE" --data-dir "$data"); fi
java $FLAGS -jar "$JAR" --engine "$ENGINE" --rate "${RATE:-200000}" --producer-wait "${PRODUCER_WAIT:-yield}" --warmup 5s \
    --duration 15s "${persistence[@]}" --repeat 1 --reports-dir "$OUT/reports" > "$OUT/run.txt" 2>&1 &
pid=$!
snap()
{
    for t in /proc/$pid/task/*; do
        name=$(tr ' ' '_' < "$t/comm")
        read -r -a f <<< "$(sed 's/.*) //' "$t/stat")"
        echo "$name $((f[11] + f[12])) ${f[7]} $(awk '/^voluntary_ctxt/{print $2}' "$t/status")" \
            "$(awk '/^nonvoluntary_ctxt/{print $2}' "$t/status")"
    done 2>/dev/null | awk '{c[$1]+=$2; m[$1]+=$3; v[$1]+=$4; n[$1]+=$5} END {for (k in c) print k, c[k], m[k], v[k], n[k]}' | sort
}
sleep 9; snap > "$OUT/s1"; sleep 10; snap > "$OUT/s2"
hz=$(getconf CLK_TCK)
join "$OUT/s1" "$OUT/s2" | awk -v hz="$hz" '{ms = ($6 - $2) * 1000 / hz / 10; fl = ($7 - $3) / 10; cs = ($8 - $4) / 10;
    pr = ($9 - $5) / 10; if (ms > 0 || fl > 100 || cs > 5) printf "%-28s %6.0f ms/s %7.0f minflt/s %7.0f wakes/s %6.0f preempt/s\n",
    $1, ms, fl, cs, pr}' | sort -k2 -nr
wait $pid
