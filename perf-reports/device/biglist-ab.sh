#!/bin/bash
# Issue 17 on the device: BigListBenchmark, the older build (its io.ringwatch classes first) and the new one alternating,
# each with a GC log and its output lines stamped with the epoch time, then one async-profiler run of the new build
# writing a collapsed file per second (prof/, listed with their times in prof-files.txt) so the writer-alone and the
# reads phases can be told apart. Usage on the device, after pack.sh OLD_PERF_JAR OLD_BENCH_JAR here:
#   BUDGET=280 PAIRS=4 .device/biglist-ab.sh $OUT
O=${1:-/tmp/out}; mkdir -p $O
D=$(cd $(dirname $0) && pwd)
[ -x /tmp/jre/bin/java ] || tar -xJf $D/jre.tar.xz -C /tmp
J=/tmp/jre/bin/java
FLAGS="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED -Dchronicle.analytics.disable=true"
NP=$D/perf.jar; OP=$D/perf-old-rw.jar:$D/perf.jar
T0=$SECONDS; BUDGET=${BUDGET:-300}
ARGS=${ARGS:-"--keys 1000000 --reads 10 --alone-seconds 3"}; PARGS=${PARGS:-"--keys 1000000 --reads 10 --alone-seconds 4"}
for i in $(seq 1 ${PAIRS:-4}); do
  for who in main branch; do
    [ $((SECONDS-T0)) -lt $((BUDGET-40)) ] || break 2
    cp=$NP; [ $who = main ] && cp=$OP
    echo "== $who-$i $(date +%T) t=$((SECONDS-T0))s load $(cut -d' ' -f1 /proc/loadavg)" > $O/out-$who-$i.txt
    timeout 60 $J $FLAGS -Xmx8g -Xlog:gc:file=$O/gc-$who-$i.log:uptime -cp $cp io.ringwatch.perf.biglist.BigListBenchmark $ARGS 2>&1 \
      | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done >> $O/out-$who-$i.txt
  done
done
if [ $((SECONDS-T0)) -lt $((BUDGET-40)) ]; then
  echo "== prof $(date +%T) $(date +%s.%N)" > $O/out-prof.txt
  mkdir -p $O/prof
  timeout 60 $J $FLAGS -Xmx8g -agentpath:$D/libasyncProfiler.so=start,event=itimer,interval=500us,threads,collapsed,loop=1s,file=$O/prof/p-%t.collapsed \
    -cp $NP io.ringwatch.perf.biglist.BigListBenchmark $PARGS 2>&1 \
    | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%N)" "$l"; done >> $O/out-prof.txt
  ls -la --time-style=+%s.%N $O/prof > $O/prof-files.txt
fi
echo "done t=$((SECONDS-T0))s" >> $O/out-prof.txt
