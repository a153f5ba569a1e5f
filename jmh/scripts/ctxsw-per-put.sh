#!/bin/bash
# ctxsw-per-put.sh JAR OUTFILE: each thread's context switch counters of the forked JVM of WriteBenchmark.ringWatch
# (MEMORY, SLIDING, 1 producer), read from /proc/<pid>/task/*/status twice, 8 s apart, during the measurement;
# then: python3 jmh/scripts/ctxsw-per-put.py OUTFILE
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
JAR=$1; OUTF=$2
java $FLAGS -jar $JAR 'WriteBenchmark.ringWatch$' -p storage=MEMORY -p pacing=SLIDING -p waitStrategy=WAKEABLE -f 1 -wi 4 -i 10 -w 1s -r 1s > $OUTF.jmh 2>&1 &
J=$!
# the forked JVM once its writer thread runs (JMH's host may start other short-lived children first)
pid=""; for i in $(seq 1 600); do
  for c in $(pgrep -P $J); do grep -qx "ringwatch-write" /proc/$c/task/*/comm 2>/dev/null && pid=$c; done
  [ -n "$pid" ] && break; sleep 0.1; done
snap() { for t in /proc/$pid/task/*; do n=$(cat $t/comm 2>/dev/null); v=$(awk '/^voluntary_ctxt_switches/{print $2}' $t/status 2>/dev/null); nv=$(awk '/^nonvoluntary_ctxt_switches/{print $2}' $t/status 2>/dev/null); echo "${t##*/} $n|$v|$nv"; done; }
sleep 5   # past the 4 s of warm-up
snap > $OUTF.a; date +%s.%N > $OUTF.ta
sleep 8
snap > $OUTF.b; date +%s.%N > $OUTF.tb
wait $J
